package descriptor_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/btcsuite/btcd/btcutil/v2/hdkeychain"
	"github.com/btcsuite/btcd/chaincfg/v2"
	"github.com/chainsieve/chainsieve/gcs/spv/descriptor"
	"github.com/chainsieve/chainsieve/testvectors"
)

// FuzzParse feeds arbitrary text to Parse: it must not panic, must refuse
// with an *Error whose offset lies within the text, and whatever it
// accepts must print (String) as a descriptor that parses back to the
// same scripts.
func FuzzParse(f *testing.F) {
	data, err := testvectors.Read("descriptor/descriptors.json")
	if err != nil {
		f.Fatal(err)
	}
	v, err := testvectors.ParseDescriptors(data)
	if err != nil {
		f.Fatal(err)
	}
	for _, d := range append(append(v.Descriptors, v.Invalid...), v.Combo...) {
		f.Add(d.Descriptor)
	}
	for _, k := range v.Keys {
		f.Add("wpkh(" + k.Key + ")")
	}
	f.Add("tr(" + tpubOf(f, xpub) + "/<0;1>/*)#0000000")
	f.Fuzz(func(t *testing.T, s string) {
		for _, net := range []*chaincfg.Params{&chaincfg.MainNetParams, &chaincfg.RegressionNetParams} {
			d, err := descriptor.Parse(s, net)
			if err != nil {
				var de *descriptor.Error
				if !errors.As(err, &de) || de.Offset < 0 || de.Offset > len(s) {
					t.Fatalf("Parse(%q) = %v: want an *Error with an offset in [0, %d]", s, err, len(s))
				}
				continue
			}
			again, err := descriptor.Parse(d.String(), net)
			if err != nil || again.String() != d.String() {
				t.Fatalf("Parse(%q).String() = %q does not parse back: %v", s, d.String(), err)
			}
			ds, as := d.Expand(), again.Expand()
			for i := range ds {
				x, err1 := ds[i].Script(3)
				y, err2 := as[i].Script(3)
				if errors.Is(err1, hdkeychain.ErrInvalidChild) {
					continue
				}
				if err1 != nil || err2 != nil || !bytes.Equal(x, y) || len(x) == 0 {
					t.Fatalf("%s path %d: Script(3) = %x, %v; after a round trip %x, %v", d, i, x, err1, y, err2)
				}
			}
		}
	})
}
