package cfscan

import (
	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/chainsieve/chainsieve/gcs"
	"github.com/chainsieve/chainsieve/gcs/spv"
)

// Checkpoints returns the published basic filter headers of n's chain, by
// height; none for signet and regtest. A scan checks every one it passes
// (see [Config.Checkpoint]). docs/btc-checkpoints.md says where each comes
// from; a test checks the BIP158 ones against the vector file.
func Checkpoints(n *spv.Network) []gcs.Checkpoint { return published[n.Known()] }

var published = map[*spv.Network][]gcs.Checkpoint{
	spv.Mainnet: mainnetFilters, spv.Testnet3: testnet3Filters, spv.Testnet4: testnet4Filters,
}

// From lightninglabs/neutrino chainsync/filtercontrol.go (commit
// 02dd48ddac6b8af308687a70831f0589373488e7), filterHeaderCheckpoints.
var mainnetFilters = []gcs.Checkpoint{
	{Height: 100000, Header: display("f28cbc1ab369eb01b7b5fe8bf59763abb73a31471fe404a26a06be4153aa7fa5")},
	{Height: 200000, Header: display("e5031471732f4fbfe7a25f6a03acc1413300d5c56ae8e06b95046b8e4c0f32b3")},
	{Height: 300000, Header: display("1bd50220fcdde929ca3143c91d2dd9a9bfedb38c452ba98dbb51e719bff8aa5b")},
	{Height: 400000, Header: display("5d973ab1f1c569c70deec1c1a8fb2e317a260f1656edb3b262c65f78ef192e3a")},
	{Height: 500000, Header: display("5d16ca293c9bdc0a9bc279b63f99fb661be38b095a59a44200a807caaa631a3c")},
	{Height: 600000, Header: display("bde0854d0b2f4386a860462547140e0c6817f5b4b2ab515ef70e204e377598f8")},
	{Height: 660000, Header: display("08312375fabc082b17fa8ee88443feb350c19a34bb7483f94f7478fa4ad33032")},
}

// Heights 100000 to 1900000: neutrino, as above. The others: the BIP158
// test vectors (bitcoin/bips bip-0158/testnet-19.json, commit
// dd3948b4742eaad13872a85691347dc77cce09f0, column "Basic Header"), which
// testvectors/bip158/testnet-19.json copies.
var testnet3Filters = []gcs.Checkpoint{
	{Height: 0, Header: display("21584579b7eb08997773e5aeff3a7f932700042d0ed2a6129012b7d7ae81b750")},
	{Height: 2, Header: display("186afd11ef2b5e7e3504f2e8cbf8df28a1fd251fe53d60dff8b1467d1b386cf0")},
	{Height: 3, Header: display("8d63aadf5ab7257cb6d2316a57b16f517bff1c6388f124ec4c04af1212729d2a")},
	{Height: 15007, Header: display("07384b01311867949e0c046607c66b7a766d338474bb67f66c8ae9dbd454b20e")},
	{Height: 49291, Header: display("b6d98692cec5145f67585f3434ec3c2b3030182e1cb3ec58b855c5c164dfaaa3")},
	{Height: 100000, Header: display("97c0633f14625627fcd133250ad8cc525937e776b5f3fd272b06d02c58b65a1c")},
	{Height: 180480, Header: display("c582d51c0ca365e3fcf36c51cb646d7f83a67e867cb4743fd2128e3e022b700c")},
	{Height: 200000, Header: display("51aa817e5abe3acdcf103616b1a5736caf84bc3773a7286e9081108ecc38cc87")},
	{Height: 400000, Header: display("4aab9b3d4312cd85cfcd48a08b36c4402bfdc1e8395dcf4236c3029dfa837c48")},
	{Height: 600000, Header: display("713d9c9198e2dba0739e85aab6875cb951c36297b95a2d51131aa6919753b55d")},
	{Height: 800000, Header: display("0dafdff27269a70293c120b14b1f5e9a72a5e8688098cfc6140b9d64f8325b99")},
	{Height: 926485, Header: display("546c574a0472144bcaf9b6aeabf26372ad87c7af7d1ee0dbfae5e099abeae49c")},
	{Height: 987876, Header: display("0965a544743bbfa36f254446e75630c09404b3d164a261892372977538928ed5")},
	{Height: 1000000, Header: display("c2043fa2f6eb5f8f8d2c5584f743187f36302ed86b62c302e31155f378da9c5f")},
	{Height: 1263442, Header: display("4e6d564c2a2452065c205dd7eb2791124e0c4e0dbb064c410c24968572589dec")},
	{Height: 1400000, Header: display("f9ae1750483d4c8ce82512616b1ded932886af46decb8d3e575907930542d9b3")},
	{Height: 1414221, Header: display("021e8882ef5a0ed932edeebbecfeda1d7ce528ec7b3daa27641acf1189d7b5dc")},
	{Height: 1500000, Header: display("dc0cfa13daf09df9b8dbe7532f75ebdb4255860b295016b2ca4b789394bc5090")},
	{Height: 1800000, Header: display("67083b2d5dfc9ca1415bffa14e43a5bbe595e2e8b7ffbcc7a4ea78fa069a9c8d")},
	{Height: 1900000, Header: display("96a31467f9edcaa3297770bc6cdf66926d5d17dfad70cb0cac285bfe9075c494")},
}

// From neutrino, as above.
var testnet4Filters = []gcs.Checkpoint{
	{Height: 10000, Header: display("5bf92ba99cc9e4971e705ab3c4a2a78ef0ea40986ab20f2c06ebfe7751e3fbb8")},
	{Height: 50000, Header: display("66592214f388e315256e5c6362750b858d580dec269500ecca7a4fbb8042b8e3")},
}

// display parses a hash in display (RPC) order; the tables are constants.
func display(s string) chainhash.Hash {
	h, err := chainhash.NewHashFromStr(s)
	if err != nil {
		panic(err)
	}
	return *h
}
