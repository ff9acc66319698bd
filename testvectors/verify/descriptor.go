package verify

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/btcsuite/btcd/btcec/v2/schnorr"
	"github.com/btcsuite/btcd/btcutil/v2"
	"github.com/btcsuite/btcd/btcutil/v2/hdkeychain"
	"github.com/btcsuite/btcd/chaincfg/v2"
	"github.com/chainsieve/chainsieve/gcs/spv/descriptor"
	"github.com/chainsieve/chainsieve/testvectors"
)

// The descriptor vectors are all mainnet.
var mainnet = &chaincfg.MainNetParams

// checkDescriptors runs the descriptor file. The BIPs and Bitcoin Core
// list some descriptors as valid that package descriptor refuses by
// design; what it must say instead is decided here from the published
// text, with btcd as the oracle for what a key is:
//   - a form other than pkh, wpkh, sh(wpkh) and tr(KEY): ErrUnsupported;
//   - a private key (WIF, xprv): ErrPrivateKey;
//   - a hardened step after an extended public key (Core's HARDENED
//     flag): hdkeychain.ErrDeriveHardFromPublic.
//
// Every other valid descriptor must derive the published scripts.
func checkDescriptors(data []byte) ([]Result, error) {
	f, err := testvectors.ParseDescriptors(data)
	if err != nil {
		return nil, err
	}
	var out []Result
	for _, v := range f.Checksums {
		detail, err := checkChecksumVector(v)
		out = append(out, result("checksum: "+v.Name, err, detail))
	}
	for _, v := range f.Keys {
		detail, err := checkKeyVector(v)
		out = append(out, result("key: "+v.Name, err, detail))
	}
	for _, v := range f.Descriptors {
		detail, err := checkDescriptorVector(v)
		out = append(out, result("descriptor: "+v.Name, err, detail))
	}
	for _, v := range f.Combo {
		detail, err := checkComboVector(v)
		out = append(out, result("combo: "+v.Name, err, detail))
	}
	for _, v := range f.Invalid {
		_, err := descriptor.Parse(v.Descriptor, mainnet)
		if err == nil {
			out = append(out, result("invalid: "+v.Name, errors.New("Parse accepted it"), ""))
			continue
		}
		out = append(out, result("invalid: "+v.Name, nil, "refused: "+err.Error()))
	}
	for _, a := range f.BIP86.Addresses {
		detail, err := checkBIP86(f.BIP86, a)
		out = append(out, result("bip86: "+a.Name, err, detail))
	}
	return out, nil
}

func checkChecksumVector(v testvectors.DescriptorChecksum) (string, error) {
	body, _, err := descriptor.SplitChecksum(v.Descriptor)
	if (err == nil) != v.Valid {
		return "", fmt.Errorf("SplitChecksum error = %v, want valid = %v", err, v.Valid)
	}
	if v.Checksum != "" {
		body, _, _ = strings.Cut(v.Descriptor, "#")
		sum, err := descriptor.Checksum(body)
		if err != nil || sum != v.Checksum {
			return "", fmt.Errorf("Checksum = %q, %v; want %q", sum, err, v.Checksum)
		}
	}
	if err != nil {
		return "refused: " + err.Error(), nil
	}
	return "accepted " + body, nil
}

// checkKeyVector parses the key expression inside pkh(), which takes every
// kind of public key.
func checkKeyVector(v testvectors.DescriptorKey) (string, error) {
	_, err := descriptor.Parse("pkh("+v.Key+")", mainnet)
	if !v.Valid {
		if err == nil {
			return "", errors.New("Parse accepted an invalid key expression")
		}
		return "refused: " + err.Error(), nil
	}
	return expectRefusal(err, keyRefusal(v.Key))
}

// expectRefusal checks err against the sentinel the vector's key calls for
// (nil: none).
func expectRefusal(err, want error) (string, error) {
	switch {
	case want == nil && err != nil:
		return "", fmt.Errorf("Parse: %v", err)
	case want == nil:
		return "parsed", nil
	case !errors.Is(err, want):
		return "", fmt.Errorf("Parse error = %v, want one wrapping %q", err, want)
	}
	return "refused as it should be: " + err.Error(), nil
}

// keyRefusal returns the sentinel a valid key expression must be refused
// with, or nil: btcd decides whether the key is private, and a hardened
// step after an extended public key cannot be derived (BIP32).
func keyRefusal(expr string) error {
	if i := strings.IndexByte(expr, ']'); i >= 0 {
		expr = expr[i+1:]
	}
	k, steps, _ := strings.Cut(expr, "/")
	if _, err := btcutil.DecodeWIF(k); err == nil {
		return descriptor.ErrPrivateKey
	}
	ext, err := hdkeychain.NewKeyFromString(k)
	switch {
	case err != nil:
		return nil
	case ext.IsPrivate():
		return descriptor.ErrPrivateKey
	case strings.ContainsAny(steps, "h'"):
		return hdkeychain.ErrDeriveHardFromPublic
	}
	return nil
}

// singleKeyForms are the descriptor prefixes package descriptor derives;
// tr() only without a script tree.
var singleKeyForms = []string{"pkh(", "wpkh(", "sh(wpkh(", "tr("}

// keyOf returns the key expression of a single-key descriptor, or "" for
// any other form.
func keyOf(desc string) string {
	for _, p := range singleKeyForms {
		if strings.HasPrefix(desc, p) && !strings.Contains(desc, ",") {
			return strings.TrimRight(desc[len(p):], ")")
		}
	}
	return ""
}

func checkDescriptorVector(v testvectors.DescriptorVector) (string, error) {
	d, err := descriptor.Parse(v.Descriptor, mainnet)
	k := keyOf(v.Descriptor)
	switch {
	case k == "":
		return expectRefusal(err, descriptor.ErrUnsupported)
	case keyRefusal(k) != nil:
		return expectRefusal(err, keyRefusal(k))
	case hasFlag(v.CoreFlags, "HARDENED"):
		return expectRefusal(err, hdkeychain.ErrDeriveHardFromPublic)
	case err != nil:
		return "", fmt.Errorf("Parse: %v", err)
	}
	paths := d.Expand()
	if v.Expanded != nil {
		if len(paths) != len(v.Expanded) {
			return "", fmt.Errorf("Expand() = %d descriptors, want %d", len(paths), len(v.Expanded))
		}
		for i, p := range paths {
			if body, _, _ := strings.Cut(p.String(), "#"); body != v.Expanded[i] {
				return "", fmt.Errorf("Expand()[%d] = %s, want %s", i, body, v.Expanded[i])
			}
		}
	}
	if len(paths) != len(v.Scripts) {
		return "", fmt.Errorf("%d paths, want %d", len(paths), len(v.Scripts))
	}
	n := 0
	for p, want := range v.Scripts {
		for i := range max(len(want), 3) {
			w := want[min(i, len(want)-1)]
			if d.Ranged() {
				if i >= len(want) {
					break
				}
				w = want[i]
			}
			got, err := paths[p].Script(uint32(i))
			if err != nil || !bytes.Equal(got, w) {
				return "", fmt.Errorf("path %d Script(%d) = %x, %v; want %x", p, i, got, err, []byte(w))
			}
			n++
		}
	}
	return fmt.Sprintf("%d scripts equal", n), nil
}

func hasFlag(flags []string, f string) bool {
	for _, g := range flags {
		if g == f {
			return true
		}
	}
	return false
}

// checkComboVector derives pkh, wpkh and sh(wpkh) of the combo() key: for a
// compressed key BIP384 lists combo's scripts as P2PK, P2PKH, P2WPKH and
// P2SH-P2WPKH, in that order.
func checkComboVector(v testvectors.DescriptorVector) (string, error) {
	k := strings.TrimSuffix(strings.TrimPrefix(v.Descriptor, "combo("), ")")
	forms := []string{"pkh(%s)", "wpkh(%s)", "sh(wpkh(%s))"}
	n := 0
	for j, form := range forms {
		d, err := descriptor.Parse(fmt.Sprintf(form, k), mainnet)
		if err != nil {
			return "", err
		}
		for i, at := range v.Scripts {
			got, err := d.Script(uint32(i))
			if err != nil || !bytes.Equal(got, at[j+1]) {
				return "", fmt.Errorf("%s Script(%d) = %x, %v; want %x", d, i, got, err, []byte(at[j+1]))
			}
			n++
		}
	}
	return fmt.Sprintf("%d scripts equal", n), nil
}

// checkBIP86 derives tr(ACCOUNT/change/*) at the address index of the
// vector's path m/86'/0'/0'/change/index.
func checkBIP86(b testvectors.BIP86Vectors, a testvectors.BIP86Address) (string, error) {
	rest, ok := strings.CutPrefix(a.Path, b.AccountPath+"/")
	change, index, ok2 := strings.Cut(rest, "/")
	i, err := strconv.ParseUint(index, 10, 31)
	if !ok || !ok2 || err != nil {
		return "", fmt.Errorf("path %s is not account path %s/change/index", a.Path, b.AccountPath)
	}
	d, err := descriptor.Parse("tr("+b.AccountXpub+"/"+change+"/*)", mainnet)
	if err != nil {
		return "", err
	}
	pub, err := d.PubKey(uint32(i))
	if err != nil {
		return "", err
	}
	if got := schnorr.SerializePubKey(pub); !bytes.Equal(got, a.InternalKey) {
		return "", fmt.Errorf("internal key %x, want %x", got, []byte(a.InternalKey))
	}
	script, err := d.Script(uint32(i))
	if err != nil || !bytes.Equal(script, a.ScriptPubKey) || !bytes.Equal(script[2:], a.OutputKey) {
		return "", fmt.Errorf("Script(%d) = %x, %v; want %x (output key %x)", i, script, err, []byte(a.ScriptPubKey), []byte(a.OutputKey))
	}
	addr, err := d.Address(uint32(i))
	if err != nil || addr.EncodeAddress() != a.Address {
		return "", fmt.Errorf("Address(%d) = %v, %v; want %s", i, addr, err, a.Address)
	}
	return "internal key, output key, script and address equal: " + hex.EncodeToString(script), nil
}
