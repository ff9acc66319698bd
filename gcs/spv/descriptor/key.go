package descriptor

import (
	"bytes"
	"encoding/hex"
	"strings"

	"github.com/btcsuite/btcd/btcec/v2"
	"github.com/btcsuite/btcd/btcec/v2/schnorr"
	"github.com/btcsuite/btcd/btcutil/v2"
	"github.com/btcsuite/btcd/btcutil/v2/hdkeychain"
	"github.com/btcsuite/btcd/chaincfg/v2"
)

// Origin is a key's origin information, [fingerprint/path]: the BIP32
// fingerprint of the key its derivation starts from and the steps from
// there to the key in the descriptor. It is metadata for signers; it does
// not change the scripts.
type Origin struct {
	Fingerprint [4]byte
	Path        []uint32 // hardened steps have hdkeychain.HardenedKeyStart added
}

// key is a parsed key expression: either a fixed public key, or an
// extended public key derived along its fixed steps, one derived key per
// multipath alternative.
type key struct {
	origin *Origin
	fixed  *btcec.PublicKey
	// uncompressed: a 65-byte hex key, allowed in pkh() only.
	uncompressed bool
	chains       []*hdkeychain.ExtendedKey // after every fixed step; one per multipath alternative
	ranged       bool                      // a final /* step
	multi        *multipath
}

// multipath locates a /<a;b;…> step in the descriptor text so that
// Expand can write each alternative in its place.
type multipath struct {
	start, end int      // byte offsets of "<…>" in the body
	alts       []string // the alternatives as written
}

// parseKey parses the key expression text found at offset off of the
// descriptor, for a script of form f.
func parseKey(text string, off int, f Form, net *chaincfg.Params) (*key, error) {
	k := &key{}
	rest, restOff := text, off
	if strings.HasPrefix(text, "[") {
		end := strings.IndexByte(text, ']')
		if end < 0 {
			return nil, errorf(off, nil, "key origin %q has no closing ']'", clip(text))
		}
		origin, err := parseOrigin(text[1:end], off+1)
		if err != nil {
			return nil, err
		}
		k.origin = origin
		rest, restOff = text[end+1:], off+end+1
	}
	if i := strings.IndexByte(rest, ']'); i >= 0 {
		return nil, errorf(restOff+i, nil, "a key has one origin: unexpected ']'")
	}
	if i := strings.IndexByte(rest, '['); i >= 0 {
		return nil, errorf(restOff+i, nil, "a key has one origin, before the key: unexpected '['")
	}
	body, steps, hasSteps := strings.Cut(rest, "/")
	if body == "" {
		return nil, errorf(restOff, nil, "missing key")
	}
	if isHex(body) {
		if hasSteps {
			return nil, errorf(restOff+len(body), nil, "a hex public key takes no derivation steps")
		}
		return k, k.parseHex(body, restOff, f)
	}
	ext, err := parseExtended(body, restOff, net)
	if err != nil {
		return nil, err
	}
	if !hasSteps {
		k.chains = []*hdkeychain.ExtendedKey{ext}
		return k, nil
	}
	return k, k.derive(ext, steps, restOff+len(body)+1)
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if !strings.ContainsRune("0123456789abcdefABCDEF", rune(s[i])) {
			return false
		}
	}
	return true
}

// parseHex reads a hex public key: 33 bytes compressed, 65 bytes
// uncompressed (pkh only), 32 bytes x-only (tr only).
func (k *key) parseHex(s string, off int, f Form) error {
	b, err := hex.DecodeString(s)
	if err != nil {
		return errorf(off, nil, "public key %q is not hex", clip(s))
	}
	switch {
	case len(b) == 32 && f == TR:
		k.fixed, err = schnorr.ParsePubKey(b)
	case len(b) == 32:
		return errorf(off, nil, "x-only public key in %s: only tr() takes one", f)
	case len(b) == 33 && (b[0] == 2 || b[0] == 3):
		k.fixed, err = btcec.ParsePubKey(b)
	case len(b) == 65 && b[0] == 4 && f == PKH:
		k.fixed, err = btcec.ParsePubKey(b)
		k.uncompressed = true
	case len(b) == 65 && b[0] == 4:
		return errorf(off, nil, "uncompressed public key in %s: only pkh() takes one", f)
	case len(b) == 65 && (b[0] == 6 || b[0] == 7):
		return errorf(off, nil, "hybrid public keys are not allowed")
	default:
		return errorf(off, nil, "%d-byte hex string is not a public key", len(b))
	}
	if err != nil {
		return errorf(off, nil, "public key %q is not on the curve: %v", clip(s), err)
	}
	return nil
}

// parseExtended decodes an extended public key and checks that its
// version is the network's. testnet3, testnet4, signet and regtest share
// tpub, so the network the caller names decides the addresses.
func parseExtended(s string, off int, net *chaincfg.Params) (*hdkeychain.ExtendedKey, error) {
	ext, err := hdkeychain.NewKeyFromString(s)
	if err != nil {
		if _, werr := btcutil.DecodeWIF(s); werr == nil {
			return nil, errorf(off, ErrPrivateKey, "WIF private key: give the public key")
		}
		return nil, errorf(off, nil, "%q is neither a hex public key nor an extended public key (%v)", clip(s), err)
	}
	if ext.IsPrivate() {
		return nil, errorf(off, ErrPrivateKey, "extended private key: give the extended public key")
	}
	if v := ext.Version(); !bytes.Equal(v, net.HDPublicKeyID[:]) {
		if other := networkOf(v); other != "" {
			return nil, errorf(off, ErrNetwork, "%s is a key of %s; the network is %s", prefix(s), other, net.Name)
		}
		return nil, errorf(off, nil, "extended key version %x is not a BIP32 xpub or tpub (SLIP-132 ypub, zpub and the like are not descriptor keys)", v)
	}
	return ext, nil
}

func prefix(s string) string { return s[:min(4, len(s))] }

// networkOf names the networks whose extended public keys have version v.
func networkOf(v []byte) string {
	switch {
	case bytes.Equal(v, chaincfg.MainNetParams.HDPublicKeyID[:]):
		return "mainnet"
	case bytes.Equal(v, chaincfg.TestNet3Params.HDPublicKeyID[:]):
		return "testnet3, testnet4, signet and regtest"
	}
	return ""
}

// derive follows the steps after an extended key: fixed steps, at most
// one multipath step, and an optional final /*. Hardened steps need the
// private key, which a descriptor of public keys does not have.
func (k *key) derive(ext *hdkeychain.ExtendedKey, steps string, off int) error {
	parts := strings.Split(steps, "/")
	keys := []*hdkeychain.ExtendedKey{ext}
	for i, p := range parts {
		last := i == len(parts)-1
		switch {
		case p == "*":
			if !last {
				return errorf(off, nil, "/* must be the last step")
			}
			k.ranged = true
		case p == "*h" || p == "*'":
			return errorf(off, hdkeychain.ErrDeriveHardFromPublic, "hardened children (/%s) need the private key", p)
		case strings.HasPrefix(p, "<"):
			alts, err := k.parseMultipath(p, off)
			if err != nil {
				return err
			}
			next := make([]*hdkeychain.ExtendedKey, len(alts))
			for j, idx := range alts {
				if next[j], err = deriveChild(keys[0], idx, off); err != nil {
					return err
				}
			}
			keys = next
		default:
			idx, err := parseStep(p, off)
			if err != nil {
				return err
			}
			for j := range keys {
				if keys[j], err = deriveChild(keys[j], idx, off); err != nil {
					return err
				}
			}
		}
		off += len(p) + 1
	}
	k.chains = keys
	return nil
}

// parseMultipath reads a BIP389 step "<a;b;…>" at offset off.
func (k *key) parseMultipath(p string, off int) ([]uint32, error) {
	if k.multi != nil {
		return nil, errorf(off, nil, "a key has one multipath step at most")
	}
	if !strings.HasSuffix(p, ">") {
		return nil, errorf(off, nil, "multipath step %q has no closing '>'", clip(p))
	}
	texts := strings.Split(p[1:len(p)-1], ";")
	if len(texts) < 2 {
		return nil, errorf(off, nil, "multipath step %q needs two alternatives or more", clip(p))
	}
	alts := make([]uint32, len(texts))
	seen := make(map[uint32]bool, len(texts))
	at := off + 1
	for i, t := range texts {
		idx, err := parseStep(t, at)
		if err != nil {
			return nil, err
		}
		if seen[idx] {
			return nil, errorf(at, nil, "multipath step repeats %s", t)
		}
		seen[idx], alts[i] = true, idx
		at += len(t) + 1
	}
	k.multi = &multipath{start: off, end: off + len(p), alts: texts}
	return alts, nil
}

// parseStep reads one derivation step, NUM or NUMh (or NUM'), as BIP380
// writes it. Bitcoin Core and the BIP380 vectors refuse "H".
func parseStep(s string, off int) (uint32, error) {
	if s == "" {
		return 0, errorf(off, nil, "empty derivation step")
	}
	hardened := s[len(s)-1] == 'h' || s[len(s)-1] == '\''
	num := s
	if hardened {
		num = s[:len(s)-1]
	}
	if num == "" || len(num) > 10 || strings.TrimLeft(num, "0123456789") != "" {
		return 0, errorf(off, nil, "derivation step %q is not a number, optionally followed by h or '", clip(s))
	}
	var v uint64
	for i := 0; i < len(num); i++ {
		v = v*10 + uint64(num[i]-'0')
	}
	if v >= hdkeychain.HardenedKeyStart {
		return 0, errorf(off, nil, "derivation step %s is out of range (at most %d)", num, hdkeychain.HardenedKeyStart-1)
	}
	if hardened {
		v += hdkeychain.HardenedKeyStart
	}
	return uint32(v), nil
}

// parseOrigin reads "fingerprint/step/…" between the brackets.
func parseOrigin(s string, off int) (*Origin, error) {
	fp, path, _ := strings.Cut(s, "/")
	if len(fp) != 8 || !isHex(fp) {
		return nil, errorf(off, nil, "origin fingerprint %q is not 8 hex characters", clip(fp))
	}
	o := &Origin{}
	hex.Decode(o.Fingerprint[:], []byte(fp))
	if len(s) == len(fp) {
		return o, nil
	}
	off += len(fp) + 1
	for _, p := range strings.Split(path, "/") {
		if strings.ContainsAny(p, "*<") {
			return nil, errorf(off, nil, "a key origin holds fixed steps only, not %q", clip(p))
		}
		idx, err := parseStep(p, off)
		if err != nil {
			return nil, err
		}
		o.Path = append(o.Path, idx)
		off += len(p) + 1
	}
	return o, nil
}

// deriveChild derives child idx of ext. A hardened child of a public key
// is refused; an index whose child is invalid (BIP32: probability below
// 2^-127) cannot be skipped in a fixed step, so it is an error too.
func deriveChild(ext *hdkeychain.ExtendedKey, idx uint32, off int) (*hdkeychain.ExtendedKey, error) {
	if idx >= hdkeychain.HardenedKeyStart {
		return nil, errorf(off, hdkeychain.ErrDeriveHardFromPublic, "hardened step %dh needs the private key", idx-hdkeychain.HardenedKeyStart)
	}
	child, err := ext.Derive(idx)
	if err != nil {
		return nil, errorf(off, err, "deriving step %d: %v", idx, err)
	}
	return child, nil
}
