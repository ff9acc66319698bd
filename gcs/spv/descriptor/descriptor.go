package descriptor

import (
	"fmt"
	"strings"

	"github.com/btcsuite/btcd/address/v2"
	"github.com/btcsuite/btcd/btcec/v2"
	"github.com/btcsuite/btcd/btcec/v2/schnorr"
	"github.com/btcsuite/btcd/btcutil/v2/hdkeychain"
	"github.com/btcsuite/btcd/chaincfg/v2"
	"github.com/btcsuite/btcd/txscript/v2"
)

// MaxLen bounds the length of a descriptor [Parse] accepts: a single-key
// descriptor with an origin and a long path is under 300 bytes.
const MaxLen = 4096

// Form is the script template of a descriptor.
type Form int

// The single-key forms.
const (
	PKH    Form = iota + 1 // pkh(KEY): pay to public key hash (BIP381)
	WPKH                   // wpkh(KEY): pay to witness public key hash (BIP382)
	SHWPKH                 // sh(wpkh(KEY)): P2WPKH nested in P2SH (BIP381, BIP382)
	TR                     // tr(KEY): taproot, key path only (BIP386, BIP86)
)

func (f Form) String() string {
	switch f {
	case PKH:
		return "pkh()"
	case WPKH:
		return "wpkh()"
	case SHWPKH:
		return "sh(wpkh())"
	case TR:
		return "tr()"
	}
	return fmt.Sprintf("Form(%d)", int(f))
}

// Descriptor is a parsed single-key output descriptor for one network. It
// derives the output scripts and addresses of its key, or of every child
// of its key when it is ranged (/*). A multipath descriptor (/<0;1>)
// stands for several descriptors, one per alternative: [Descriptor.Expand]
// returns them.
//
// A Descriptor is immutable and safe for concurrent use.
type Descriptor struct {
	body string // the descriptor as given, without its checksum
	sum  string // its checksum
	form Form
	key  *key
	net  *chaincfg.Params
}

// Parse parses a descriptor of one of the forms pkh(KEY), wpkh(KEY),
// sh(wpkh(KEY)) and tr(KEY) for the network net. KEY is a hex public key
// or an extended public key of net (xpub on mainnet; tpub on testnet3,
// testnet4, signet and regtest, which share it), optionally preceded by
// its origin [fingerprint/path] and followed by derivation steps, one
// BIP389 multipath step /<a;b;…> and a final /*. A '#' checksum is
// optional, but checked when present.
//
// Errors are [*Error] values naming the byte offset of the problem. They
// wrap [ErrChecksum], [ErrUnsupported] (other BIP380 forms: pk, multi,
// wsh, tr with a script tree, …), [ErrPrivateKey], [ErrNetwork], or
// hdkeychain.ErrDeriveHardFromPublic for a hardened step after an
// extended public key.
func Parse(desc string, net *chaincfg.Params) (*Descriptor, error) {
	if net == nil {
		return nil, errorf(0, nil, "no network given")
	}
	if len(desc) > MaxLen {
		return nil, errorf(MaxLen, nil, "longer than %d bytes", MaxLen)
	}
	body, sum, err := SplitChecksum(desc)
	if err != nil {
		return nil, err
	}
	p := parser{s: body, net: net}
	d, err := p.top()
	if err != nil {
		return nil, err
	}
	d.body, d.sum, d.net = body, sum, net
	return d, nil
}

// String returns the descriptor as parsed, followed by '#' and its
// checksum.
func (d *Descriptor) String() string { return d.body + "#" + d.sum }

// Form returns the descriptor's script template.
func (d *Descriptor) Form() Form { return d.form }

// Network returns the network the descriptor was parsed for.
func (d *Descriptor) Network() *chaincfg.Params { return d.net }

// Ranged reports whether the descriptor ends in /*: one script per child
// index rather than one script.
func (d *Descriptor) Ranged() bool { return d.key.ranged }

// Paths returns the number of descriptors a multipath descriptor stands
// for, 1 for any other.
func (d *Descriptor) Paths() int {
	if d.key.multi == nil {
		return 1
	}
	return len(d.key.multi.alts)
}

// Origin returns the key's origin information, if the descriptor gives it.
func (d *Descriptor) Origin() (Origin, bool) {
	if d.key.origin == nil {
		return Origin{}, false
	}
	return *d.key.origin, true
}

// Expand returns the descriptors a multipath descriptor stands for, in the
// order of its alternatives (for /<0;1>, by BIP389's convention, receiving
// then change), each written with its alternative in place of the
// multipath step. Any other descriptor is returned alone.
func (d *Descriptor) Expand() []*Descriptor {
	m := d.key.multi
	if m == nil {
		return []*Descriptor{d}
	}
	out := make([]*Descriptor, len(m.alts))
	for i, alt := range m.alts {
		k := *d.key
		k.multi, k.chains = nil, d.key.chains[i:i+1]
		body := d.body[:m.start] + alt + d.body[m.end:]
		sum, _ := Checksum(body) // body holds only characters of the parsed descriptor
		out[i] = &Descriptor{body: body, sum: sum, form: d.form, key: &k, net: d.net}
	}
	return out
}

// PubKey returns the public key at child index (ignored unless the
// descriptor is ranged). An index whose BIP32 child is invalid gives an
// error wrapping hdkeychain.ErrInvalidChild: BIP32 says to skip it.
func (d *Descriptor) PubKey(index uint32) (*btcec.PublicKey, error) {
	k := d.key
	if k.fixed != nil {
		return k.fixed, nil
	}
	if k.multi != nil {
		return nil, errorf(k.multi.start, ErrMultipath, "multipath descriptor: Expand it first")
	}
	ext := k.chains[0]
	if k.ranged {
		if index >= hdkeychain.HardenedKeyStart {
			return nil, errorf(len(d.body), nil, "child index %d is out of the unhardened range", index)
		}
		child, err := ext.Derive(index)
		if err != nil {
			return nil, errorf(len(d.body), err, "child %d: %v", index, err)
		}
		ext = child
	}
	return ext.ECPubKey()
}

// Address returns the address at child index (see [Descriptor.PubKey]),
// encoded for the descriptor's network.
func (d *Descriptor) Address(index uint32) (address.Address, error) {
	pub, err := d.PubKey(index)
	if err != nil {
		return nil, err
	}
	return d.address(pub)
}

// Script returns the output script (scriptPubKey) at child index (see
// [Descriptor.PubKey]).
func (d *Descriptor) Script(index uint32) ([]byte, error) {
	a, err := d.Address(index)
	if err != nil {
		return nil, err
	}
	return txscript.PayToAddrScript(a)
}

// address builds the form's address for pub with btcd.
func (d *Descriptor) address(pub *btcec.PublicKey) (address.Address, error) {
	switch d.form {
	case PKH:
		ser := pub.SerializeCompressed()
		if d.key.uncompressed {
			ser = pub.SerializeUncompressed()
		}
		return address.NewAddressPubKeyHash(address.Hash160(ser), d.net)
	case WPKH:
		return address.NewAddressWitnessPubKeyHash(address.Hash160(pub.SerializeCompressed()), d.net)
	case SHWPKH:
		// The redeem script is the P2WPKH output script (BIP141).
		w, err := address.NewAddressWitnessPubKeyHash(address.Hash160(pub.SerializeCompressed()), d.net)
		if err != nil {
			return nil, err
		}
		redeem, err := txscript.PayToAddrScript(w)
		if err != nil {
			return nil, err
		}
		return address.NewAddressScriptHash(redeem, d.net)
	case TR:
		return address.NewAddressTaproot(schnorr.SerializePubKey(txscript.ComputeTaprootKeyNoScript(pub)), d.net)
	}
	return nil, fmt.Errorf("descriptor: unknown form %v", d.form)
}

// parser reads a descriptor body left to right, tracking the offset for
// errors.
type parser struct {
	s   string
	pos int
	net *chaincfg.Params
}

// functions BIP380 to BIP390 define that are not single-key forms.
var otherForms = map[string]bool{"pk": true, "combo": true, "multi": true, "sortedmulti": true,
	"multi_a": true, "sortedmulti_a": true, "wsh": true, "raw": true, "addr": true, "rawtr": true, "musig": true}

func (p *parser) top() (*Descriptor, error) {
	name, at := p.name()
	var d *Descriptor
	var err error
	switch name {
	case "pkh":
		d, err = p.keyFunc(PKH, 1)
	case "wpkh":
		d, err = p.keyFunc(WPKH, 1)
	case "tr":
		d, err = p.keyFunc(TR, 1)
	case "sh":
		inner, innerAt := p.name()
		switch {
		case inner == "wpkh":
			d, err = p.keyFunc(SHWPKH, 2)
		case inner == "sh" || inner == "tr":
			return nil, errorf(innerAt, nil, "%s() cannot be inside sh()", inner)
		case otherForms[inner] || inner == "pkh":
			return nil, errorf(innerAt, ErrUnsupported, "sh(%s()) is not one of the single-key forms pkh, wpkh, sh(wpkh), tr", inner)
		default:
			return nil, errorf(innerAt, nil, "sh() takes a script expression such as wpkh(KEY)")
		}
	default:
		if otherForms[name] {
			return nil, errorf(at, ErrUnsupported, "%s() is not one of the single-key forms pkh, wpkh, sh(wpkh), tr", name)
		}
		return nil, errorf(at, nil, "expected a script expression such as wpkh(KEY), found %q", clip(p.s[at:]))
	}
	if err != nil {
		return nil, err
	}
	if p.pos != len(p.s) {
		return nil, errorf(p.pos, nil, "unexpected %q after the descriptor", clip(p.s[p.pos:]))
	}
	return d, nil
}

// name reads a function name and its '('; it returns "" if there is none.
func (p *parser) name() (string, int) {
	at := p.pos
	i := at
	for i < len(p.s) && (p.s[i] >= 'a' && p.s[i] <= 'z' || p.s[i] >= '0' && p.s[i] <= '9' || p.s[i] == '_') {
		i++
	}
	if i == at || i == len(p.s) || p.s[i] != '(' {
		return "", at
	}
	p.pos = i + 1
	return p.s[at:i], at
}

// keyFunc reads KEY and the closing parentheses of a key function nested
// depth deep.
func (p *parser) keyFunc(f Form, depth int) (*Descriptor, error) {
	at := p.pos
	end := strings.IndexAny(p.s[at:], "),")
	if end < 0 {
		return nil, errorf(len(p.s), nil, "missing ')'")
	}
	text := p.s[at : at+end]
	if i := strings.IndexByte(text, '('); i >= 0 {
		return nil, errorf(at, nil, "%s takes a key, not a script expression", f)
	}
	if p.s[at+end] == ',' {
		if f == TR {
			return nil, errorf(at+end, ErrUnsupported, "tr() with a script tree is not one of the single-key forms")
		}
		return nil, errorf(at+end, nil, "%s takes one key", f)
	}
	k, err := parseKey(text, at, f, p.net)
	if err != nil {
		return nil, err
	}
	p.pos = at + end
	for range depth {
		if p.pos >= len(p.s) || p.s[p.pos] != ')' {
			return nil, errorf(p.pos, nil, "missing ')'")
		}
		p.pos++
	}
	return &Descriptor{form: f, key: k}, nil
}
