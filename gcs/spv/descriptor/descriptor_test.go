package descriptor_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/btcsuite/btcd/btcutil/v2/hdkeychain"
	"github.com/btcsuite/btcd/chaincfg/v2"
	"github.com/chainsieve/chainsieve/gcs/spv/descriptor"
)

// Keys of the BIP32 test vector 1 master (seed 000102…0f): its xpub, and
// the same key written with testnet version bytes (tpub), made with
// hdkeychain in newKeys.
const xpub = "xpub661MyMwAqRbcFtXgS5sYJABqqG9YLmC4Q1Rdap9gSE8NqtwybGhePY2gZ29ESFjqJoCu1Rupje8YtGqsefD265TMg7usUDFdp6W1EGMcet8"

func tpubOf(t testing.TB, x string) string {
	t.Helper()
	k, err := hdkeychain.NewKeyFromString(x)
	if err != nil {
		t.Fatal(err)
	}
	k, err = k.CloneWithVersion(chaincfg.TestNet3Params.HDPublicKeyID[:])
	if err != nil {
		t.Fatal(err)
	}
	return k.String()
}

// TestParseErrors pins the offset and the sentinel of each refusal.
func TestParseErrors(t *testing.T) {
	k03 := "03a34b99f22c790c4e36b2b3c2c35a36db06226e41c692fc82b8b56ac1c540c5bd"
	tests := []struct {
		name   string
		desc   string
		offset int
		want   error // sentinel, or nil for any *Error
		msg    string
	}{
		{"bad checksum", "wpkh(" + k03 + ")#aaaaaaaa", 73, descriptor.ErrChecksum, "does not match"},
		{"short checksum", "wpkh(" + k03 + ")#aaaa", 73, descriptor.ErrChecksum, "4 characters"},
		{"two hashes", "wpkh(" + k03 + ")#a#aaaaaa", 74, descriptor.ErrChecksum, "more than one"},
		{"control byte", "wpkh(\x07)", 5, descriptor.ErrChecksum, "0x07"},
		{"unknown function", "foo(" + k03 + ")", 0, nil, "expected a script expression"},
		{"no function", k03, 0, nil, "expected a script expression"},
		{"multi", "multi(1," + k03 + ")", 0, descriptor.ErrUnsupported, "multi()"},
		{"sh(pkh)", "sh(pkh(" + k03 + "))", 3, descriptor.ErrUnsupported, "sh(pkh())"},
		{"tr tree", "tr(" + k03[2:] + ",pk(" + k03 + "))", 67, descriptor.ErrUnsupported, "script tree"},
		{"two keys", "wpkh(" + k03 + "," + k03 + ")", 71, nil, "takes one key"},
		{"missing paren", "wpkh(" + k03, 71, nil, "missing ')'"},
		{"sh missing paren", "sh(wpkh(" + k03 + ")", 75, nil, "missing ')'"},
		{"trailing text", "wpkh(" + k03 + "))", 72, nil, "after the descriptor"},
		{"empty key", "pkh()", 4, nil, "missing key"},
		{"x-only in wpkh", "wpkh(" + k03[2:] + ")", 5, nil, "only tr()"},
		{"uncompressed in tr", "tr(04" + strings.Repeat("ab", 64) + ")", 3, nil, "only pkh()"},
		{"not on curve", "wpkh(02" + strings.Repeat("ff", 32) + ")", 5, nil, "not on the curve"},
		{"steps after hex key", "wpkh(" + k03 + "/0)", 71, nil, "no derivation steps"},
		{"hardened after xpub", "wpkh(" + xpub + "/0/1h/*)", 119, hdkeychain.ErrDeriveHardFromPublic, "1h"},
		{"hardened wildcard", "wpkh(" + xpub + "/0/*h)", 119, hdkeychain.ErrDeriveHardFromPublic, "*h"},
		{"hardened multipath", "wpkh(" + xpub + "/<0;1'>/*)", 117, hdkeychain.ErrDeriveHardFromPublic, "1h"},
		{"wildcard not last", "wpkh(" + xpub + "/*/0)", 117, nil, "last step"},
		{"uppercase H", "wpkh(" + xpub + "/0H)", 117, nil, "not a number"},
		{"xprv", "wpkh(xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi/0/*)", 5, descriptor.ErrPrivateKey, "private"},
		{"garbage key", "wpkh(notakey)", 5, nil, "neither"},
		{"too long", "wpkh(" + strings.Repeat("0", descriptor.MaxLen) + ")", descriptor.MaxLen, nil, "longer than"},
	}
	for _, tt := range tests {
		_, err := descriptor.Parse(tt.desc, &chaincfg.MainNetParams)
		var de *descriptor.Error
		if !errors.As(err, &de) || de.Offset != tt.offset || !strings.Contains(err.Error(), tt.msg) ||
			(tt.want != nil && !errors.Is(err, tt.want)) {
			t.Errorf("%s: Parse() = %v; want an *Error at offset %d wrapping %v, saying %q", tt.name, err, tt.offset, tt.want, tt.msg)
		}
	}
}

// TestNetworks checks that the caller's network decides: tpub is accepted
// on every test network, with that network's addresses, and refused on
// mainnet; xpub only on mainnet.
func TestNetworks(t *testing.T) {
	tpub := tpubOf(t, xpub)
	tests := []struct {
		key    string
		net    *chaincfg.Params
		prefix string // of the first P2WPKH address, or "" for ErrNetwork
	}{
		{xpub, &chaincfg.MainNetParams, "bc1q"},
		{xpub, &chaincfg.TestNet3Params, ""},
		{xpub, &chaincfg.RegressionNetParams, ""},
		{tpub, &chaincfg.MainNetParams, ""},
		{tpub, &chaincfg.TestNet3Params, "tb1q"},
		{tpub, &chaincfg.TestNet4Params, "tb1q"},
		{tpub, &chaincfg.SigNetParams, "tb1q"},
		{tpub, &chaincfg.RegressionNetParams, "bcrt1q"},
	}
	var scripts []string
	for _, tt := range tests {
		d, err := descriptor.Parse("wpkh("+tt.key+"/0/*)", tt.net)
		if tt.prefix == "" {
			if !errors.Is(err, descriptor.ErrNetwork) {
				t.Errorf("Parse(%.4s…, %s) = %v, want ErrNetwork", tt.key, tt.net.Name, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("Parse(%.4s…, %s): %v", tt.key, tt.net.Name, err)
		}
		a, err := d.Address(0)
		if err != nil || !strings.HasPrefix(a.EncodeAddress(), tt.prefix) || !a.IsForNet(tt.net) {
			t.Errorf("%s: Address(0) = %v, %v; want a %s… address", tt.net.Name, a, err, tt.prefix)
		}
		s, _ := d.Script(0)
		scripts = append(scripts, string(s))
	}
	for _, s := range scripts[1:] {
		if s != scripts[0] {
			t.Errorf("the same key gave different scripts on different networks")
		}
	}
}

func TestExpandAndString(t *testing.T) {
	d, err := descriptor.Parse("tr([deadbeef/86h/0h/0h]"+xpub+"/<0;1>/*)", &chaincfg.MainNetParams)
	if err != nil {
		t.Fatal(err)
	}
	if d.Paths() != 2 || !d.Ranged() || d.Form() != descriptor.TR {
		t.Errorf("Paths, Ranged, Form = %d, %v, %v; want 2, true, tr()", d.Paths(), d.Ranged(), d.Form())
	}
	if _, err := d.Script(0); !errors.Is(err, descriptor.ErrMultipath) {
		t.Errorf("Script on a multipath descriptor = %v, want ErrMultipath", err)
	}
	o, ok := d.Origin()
	if !ok || o.Fingerprint != [4]byte{0xde, 0xad, 0xbe, 0xef} || len(o.Path) != 3 || o.Path[0] != 86+hdkeychain.HardenedKeyStart {
		t.Errorf("Origin() = %+v, %v", o, ok)
	}
	for i, e := range d.Expand() {
		// String carries a checksum that Parse accepts, and parses back to
		// the same scripts.
		again, err := descriptor.Parse(e.String(), &chaincfg.MainNetParams)
		if err != nil || again.Paths() != 1 || !strings.Contains(e.String(), "/"+string(rune('0'+i))+"/*)#") {
			t.Fatalf("Expand()[%d] = %s: Parse: %v", i, e, err)
		}
		a, _ := e.Script(7)
		b, _ := again.Script(7)
		if string(a) != string(b) {
			t.Errorf("%s: Script(7) differs after a round trip", e)
		}
	}
	if _, err := d.Expand()[0].Script(hdkeychain.HardenedKeyStart); err == nil {
		t.Errorf("Script(2^31) = nil error, want an error: children are unhardened")
	}
}

// TestChecksumDetectsSubstitutions checks BIP380's promise that any single
// substitution within the character set is detected.
func TestChecksumDetectsSubstitutions(t *testing.T) {
	d, err := descriptor.Parse("wpkh("+xpub+"/0/*)", &chaincfg.MainNetParams)
	if err != nil {
		t.Fatal(err)
	}
	s := d.String()
	const charset = "0123456789()[],'/*abcdefgh@:$%{}IJKLMNOPQRSTUVWXYZ&+-.;<=>?!^_|~ijklmnopqrstuvwxyzABCDEFGH`\"\\ "
	step := 1
	if testing.Short() {
		step = 7
	}
	for i := 0; i < len(s)-descriptor.ChecksumLen-1; i += step {
		for j := 0; j < len(charset); j++ {
			if charset[j] == s[i] {
				continue
			}
			mutated := s[:i] + charset[j:j+1] + s[i+1:]
			if _, _, err := descriptor.SplitChecksum(mutated); !errors.Is(err, descriptor.ErrChecksum) {
				t.Fatalf("substituting %q at %d went undetected", charset[j], i)
			}
		}
	}
}
