// SPDX-License-Identifier: MIT
// Emits each event with the same value twice: indexed (topic 1, as
// Solidity encodes it) and in data (as Solidity ABI-encodes it). The
// event package's tests call every function with random values and
// compare its topics and decoding with what this compiled code emitted.
pragma solidity ^0.8.0;

contract Topics {
    struct S { uint8 a; string b; bytes3[2] c; int24[] d; }
    struct P { int64 x; bytes1 y; address z; }

    event EString(string indexed t, string v);
    event EBytes(bytes indexed t, bytes v);
    event EUint8x2(uint8[2] indexed t, uint8[2] v);
    event EInt16s(int16[] indexed t, int16[] v);
    event EBytes3s(bytes3[] indexed t, bytes3[] v);
    event EBoolx2(bool[2] indexed t, bool[2] v);
    event EAddresses(address[] indexed t, address[] v);
    event EStrings(string[] indexed t, string[] v);
    event EBytess(bytes[] indexed t, bytes[] v);
    event EStringx2(string[2] indexed t, string[2] v);
    event EStringss(string[][] indexed t, string[][] v);
    event EUint256x2s(uint256[2][] indexed t, uint256[2][] v);
    event ES(S indexed t, S v);
    event ESs(S[] indexed t, S[] v);
    event EP(P indexed t, P v);
    event EPx3(P[3] indexed t, P[3] v);
    event EWords(int8 indexed a, bytes5 indexed b, uint40 indexed c, int256 d, bytes32 e);

    function fString(string calldata x) external { emit EString(x, x); }
    function fBytes(bytes calldata x) external { emit EBytes(x, x); }
    function fUint8x2(uint8[2] calldata x) external { emit EUint8x2(x, x); }
    function fInt16s(int16[] calldata x) external { emit EInt16s(x, x); }
    function fBytes3s(bytes3[] calldata x) external { emit EBytes3s(x, x); }
    function fBoolx2(bool[2] calldata x) external { emit EBoolx2(x, x); }
    function fAddresses(address[] calldata x) external { emit EAddresses(x, x); }
    function fStrings(string[] calldata x) external { emit EStrings(x, x); }
    function fBytess(bytes[] calldata x) external { emit EBytess(x, x); }
    function fStringx2(string[2] calldata x) external { emit EStringx2(x, x); }
    function fStringss(string[][] calldata x) external { emit EStringss(x, x); }
    function fUint256x2s(uint256[2][] calldata x) external { emit EUint256x2s(x, x); }
    function fS(S calldata x) external { emit ES(x, x); }
    function fSs(S[] calldata x) external { emit ESs(x, x); }
    function fP(P calldata x) external { emit EP(x, x); }
    function fPx3(P[3] calldata x) external { emit EPx3(x, x); }
    function fWords(int8 a, bytes5 b, uint40 c, int256 d, bytes32 e) external { emit EWords(a, b, c, d, e); }
}
