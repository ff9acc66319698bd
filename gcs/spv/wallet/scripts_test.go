package wallet

import (
	"errors"
	"fmt"
	"testing"

	"github.com/btcsuite/btcd/address/v2"
	"github.com/btcsuite/btcd/btcutil/v2/hdkeychain"
	"github.com/btcsuite/btcd/chaincfg/v2"
	"github.com/chainsieve/chainsieve/gcs/spv/descriptor"
)

// testXpub is the BIP32 test vector 1 master key; tpubOf rewrites it with
// testnet version bytes for regtest.
const testXpub = "xpub661MyMwAqRbcFtXgS5sYJABqqG9YLmC4Q1Rdap9gSE8NqtwybGhePY2gZ29ESFjqJoCu1Rupje8YtGqsefD265TMg7usUDFdp6W1EGMcet8"

func tpubOf(t testing.TB) string {
	t.Helper()
	k, err := hdkeychain.NewKeyFromString(testXpub)
	if err == nil {
		k, err = k.CloneWithVersion(chaincfg.RegressionNetParams.HDPublicKeyID[:])
	}
	if err != nil {
		t.Fatal(err)
	}
	return k.String()
}

func regtestDescriptor(t testing.TB, text string) *descriptor.Descriptor {
	t.Helper()
	d, err := descriptor.Parse(fmt.Sprintf(text, tpubOf(t)), &chaincfg.RegressionNetParams)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func indexes(ds []Derived) []string {
	var out []string
	for _, d := range ds {
		out = append(out, fmt.Sprintf("%d/%d", d.Chain, d.Index))
	}
	return out
}

func equal(a, b []string) bool { return fmt.Sprint(a) == fmt.Sprint(b) }

// TestGapLimit follows BIP44's rule on a receiving and a change chain:
// watch 0 to maxUsed+gap, extend when a payment raises maxUsed, and say
// which scripts are new.
func TestGapLimit(t *testing.T) {
	d := regtestDescriptor(t, "wpkh([00000000/84h/1h/0h]%s/<0;1>/*)")
	s, err := NewScripts(3, d)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := indexes(s.Watched()), []string{"0/0", "0/1", "0/2", "1/0", "1/1", "1/2"}; !equal(got, want) {
		t.Fatalf("Watched() = %v, want %v", got, want)
	}
	script := func(chain int, i uint32) []byte {
		b, err := s.Chains()[chain].(*descriptor.Descriptor).Script(i)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	steps := []struct {
		name  string
		chain int
		index uint32
		added []string
	}{
		{"pays receive 1", 0, 1, []string{"0/3", "0/4"}},
		{"pays receive 0: below maxUsed", 0, 0, nil},
		{"pays receive 4, the last watched", 0, 4, []string{"0/5", "0/6", "0/7"}},
		{"pays change 2", 1, 2, []string{"1/3", "1/4", "1/5"}},
		{"pays receive 4 again", 0, 4, nil},
	}
	for _, st := range steps {
		added, err := s.Use(script(st.chain, st.index))
		if err != nil || !equal(indexes(added), st.added) {
			t.Errorf("%s: Use() = %v, %v; want %v", st.name, indexes(added), err, st.added)
		}
	}
	if u, ok := s.MaxUsed(0); !ok || u != 4 {
		t.Errorf("MaxUsed(0) = %d, %v; want 4", u, ok)
	}
	if n, err := s.Next(0); err != nil || n.Index != 5 {
		t.Errorf("Next(0) = %v, %v; want index 5", n.Index, err)
	}
	if n, err := s.Next(1); err != nil || n.Index != 3 {
		t.Errorf("Next(1) = %v, %v; want index 3", n.Index, err)
	}
	if added, err := s.Use([]byte{0x51}); added != nil || err != nil {
		t.Errorf("Use(unwatched) = %v, %v; want nothing", added, err)
	}
	for _, w := range s.Watched() {
		got, ok := s.Lookup(w.Script)
		a, _ := s.Chains()[w.Chain].(*descriptor.Descriptor).Address(w.Index)
		if !ok || got.Index != w.Index || got.Chain != w.Chain || w.Address.EncodeAddress() != a.EncodeAddress() {
			t.Errorf("Lookup(%d/%d) = %+v, %v", w.Chain, w.Index, got, ok)
		}
	}
	if len(s.Watched()) != 8+6 {
		t.Errorf("%d scripts watched, want 14", len(s.Watched()))
	}
}

func TestScriptsFixedAndErrors(t *testing.T) {
	fixed := regtestDescriptor(t, "pkh(%s/0/7)")
	s, err := NewScripts(DefaultGap, fixed, fixed)
	if err != nil {
		t.Fatal(err)
	}
	if got := indexes(s.Watched()); !equal(got, []string{"0/0"}) {
		t.Errorf("a fixed descriptor given twice: Watched() = %v, want one script", got)
	}
	if added, err := s.Use(s.Watched()[0].Script); added != nil || err != nil {
		t.Errorf("Use on a fixed chain = %v, %v; want nothing", added, err)
	}
	for _, gap := range []uint32{0, MaxGap + 1} {
		if _, err := NewScripts(gap, fixed); err == nil {
			t.Errorf("NewScripts(gap %d) accepted", gap)
		}
	}
	if _, err := NewScripts(DefaultGap); err == nil {
		t.Errorf("NewScripts without descriptors accepted")
	}
	if _, err := s.MarkUsed(5, 0); err == nil {
		t.Errorf("MarkUsed(chain 5 of 2) accepted")
	}
}

// fakeChain is a ranged source whose children at the invalid indexes
// fail as BIP32 allows (probability 2^-127 with real keys).
type fakeChain struct {
	invalid map[uint32]bool
}

func (f fakeChain) Ranged() bool   { return true }
func (f fakeChain) String() string { return "fake" }
func (f fakeChain) Address(i uint32) (address.Address, error) {
	if f.invalid[i] {
		return nil, fmt.Errorf("child %d: %w", i, hdkeychain.ErrInvalidChild)
	}
	h := make([]byte, 20)
	h[0], h[1], h[2], h[3] = byte(i>>24), byte(i>>16), byte(i>>8), byte(i)
	return address.NewAddressWitnessPubKeyHash(h, &chaincfg.RegressionNetParams)
}

// TestInvalidChildSkipped checks that an index without a valid child is
// skipped and still counts towards the gap, and that the index space ends
// at 2^31.
func TestInvalidChildSkipped(t *testing.T) {
	s, err := newScripts(4, []Source{fakeChain{invalid: map[uint32]bool{2: true, 6: true}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := indexes(s.Watched()); !equal(got, []string{"0/0", "0/1", "0/3"}) {
		t.Errorf("Watched() = %v, want 0/0 0/1 0/3 (index 2 skipped)", got)
	}
	added, err := s.MarkUsed(0, 3)
	if err != nil || !equal(indexes(added), []string{"0/4", "0/5", "0/7"}) {
		t.Errorf("MarkUsed(3) = %v, %v; want 0/4 0/5 0/7 (index 6 skipped)", indexes(added), err)
	}
	// Near the end of the index space (set directly: deriving 2^31
	// children would take hours) the watch list stops at 2^31-1.
	c := s.chains[0]
	c.end, c.used = maxIndex-3, maxIndex-5
	added, err = s.MarkUsed(0, maxIndex-4)
	if err != nil || !equal(indexes(added), []string{"0/2147483645", "0/2147483646", "0/2147483647"}) {
		t.Errorf("MarkUsed(2^31-4) = %v, %v; want the indexes up to 2^31-1", indexes(added), err)
	}
	if _, err := s.MarkUsed(0, maxIndex-1); err != nil {
		t.Errorf("MarkUsed(2^31-1) = %v", err)
	}
	if _, err := s.Next(0); err == nil {
		t.Errorf("Next after the last index = nil error, want one")
	}
	errChain := fakeErr{}
	if _, err := newScripts(4, []Source{errChain}); !errors.Is(err, errBroken) {
		t.Errorf("a source error = %v, want it wrapped", err)
	}
}

var errBroken = errors.New("broken")

type fakeErr struct{}

func (fakeErr) Ranged() bool                            { return true }
func (fakeErr) String() string                          { return "broken" }
func (fakeErr) Address(uint32) (address.Address, error) { return nil, errBroken }
