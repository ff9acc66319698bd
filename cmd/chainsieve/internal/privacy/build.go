package privacy

import (
	"fmt"
	"math"
	"strconv"
)

// Config is what a report is computed from.
type Config struct {
	// Addresses is the number of keys of a synthetic wallet (N). It is
	// ignored when Wallet is set.
	Addresses int
	// Wallet, when set, is the wallet to analyse (see [ParseWallet]), read
	// from WalletName.
	Wallet     []Key
	WalletName string
	// Candidates is the number of candidate addresses an adversary tests
	// (S), the wallet's included.
	Candidates float64
	// Filters is the number of filters (K) the adversary collects from the
	// wallet's restarts, each with a fresh tweak.
	Filters int
	// Seed drives every random choice: keys, tweaks, sampled candidates.
	Seed uint64
	// Measured are statistics of real scans (see [ParseStats]).
	Measured []Stats
	// Command is the command line, recorded in the report.
	Command string
	// Progress, if set, is called as each part of the report is computed,
	// from the goroutine that called [Build]. It is not an input: it
	// changes nothing in the report.
	Progress func(Step)
}

// Step is how far [Build] has come: Done of Total parts of the report are
// computed, the latest of them Name.
type Step struct {
	Name        string
	Done, Total int
}

// Default inputs: Nick's 2015 count of public keys on the chain, and one
// restart.
const (
	DefaultAddresses  = 100
	DefaultCandidates = 56e6
	DefaultFilters    = 2
	maxAddresses      = 50000 // 2N + 100 elements still get one hash function from Core's formula
	maxFilters        = 50
)

// Check reports inputs the models cannot take; [Build] calls it first.
func (c *Config) Check() error {
	n := c.keyCount()
	switch {
	case n < 1 || n > maxAddresses:
		return fmt.Errorf("privacy: %d addresses, want 1 to %d", n, maxAddresses)
	case math.IsNaN(c.Candidates) || c.Candidates < float64(n) || c.Candidates > 1e12 || c.Candidates != math.Trunc(c.Candidates):
		return fmt.Errorf("privacy: %v candidates, want a whole number from the wallet's %d addresses to 1e12", c.Candidates, n)
	case c.Filters < 1 || c.Filters > maxFilters:
		return fmt.Errorf("privacy: %d filters, want 1 to %d", c.Filters, maxFilters)
	}
	return nil
}

func (c *Config) keyCount() int {
	if c.Wallet != nil {
		return len(c.Wallet)
	}
	return c.Addresses
}

// Build computes the report. It is deterministic in cfg.
func Build(cfg Config) (*Report, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	in := newInputs(cfg)
	r := &Report{Title: "chainsieve privacy report: BIP37, BIP157/158 and Ethereum header blooms", Command: cfg.Command}
	r.Inputs = in.quantities()
	steps := []struct {
		name string
		add  func(*inputs, *Report) error
	}{
		{"BIP37 filters and recovery", addBIP37}, {"BIP158 filters", addBIP158}, {"Ethereum blooms", addEthereum},
		{"bandwidth", addBandwidth}, {"bits per element", addBits}, {"measured scans", addMeasured},
		{"reproductions", addReproductions}, {"comparison plots", addComparisonPlots}, {"key findings", addFindings},
	}
	in.total = len(steps) + bitsSteps()
	for _, step := range steps {
		if err := step.add(in, r); err != nil {
			return nil, err
		}
		in.step(step.name)
	}
	for i := range r.Sections {
		if r.Sections[i].Quantities == nil {
			r.Sections[i].Quantities = []Quantity{} // an empty list in JSON, not null
		}
	}
	r.Notes = notes
	return r, nil
}

// inputs are the configuration and what every section derives from it.
type inputs struct {
	cfg  Config
	keys []Key
	n    int     // wallet keys
	s    float64 // candidates
	k    int     // filters

	bip37 *bip37Analysis // set by addBIP37
	basic []basicBlock   // set by addBIP158
	eth   []ethStats     // set by addEthereum

	done, total int // parts of the report computed, for cfg.Progress
}

// step records that the part name is computed and reports it.
func (in *inputs) step(name string) {
	in.done++
	if in.cfg.Progress != nil {
		in.cfg.Progress(Step{Name: name, Done: in.done, Total: in.total})
	}
}

func newInputs(cfg Config) *inputs {
	keys := cfg.Wallet
	if keys == nil {
		keys = syntheticWallet(stream(cfg.Seed, "wallet"), cfg.Addresses)
	}
	return &inputs{cfg: cfg, keys: keys, n: len(keys), s: cfg.Candidates, k: cfg.Filters}
}

// others is the number of candidates that are not the wallet's.
func (in *inputs) others() float64 { return in.s - float64(in.n) }

func (in *inputs) quantities() []Quantity {
	wallet := fmt.Sprintf("a synthetic wallet of %d fresh compressed keys drawn from the seed", in.n)
	if in.cfg.Wallet != nil {
		wallet = fmt.Sprintf("the wallet file %s (%d entries)", in.cfg.WalletName, in.n)
	}
	return []Quantity{
		{ID: "input.addresses", Label: "wallet keys or addresses (N)", Value: Num(in.n), Kind: Input,
			Model: "the wallet analysed: " + wallet, Source: "--addresses or --wallet"},
		{ID: "input.candidates", Label: "candidate addresses the adversary tests (S)", Value: Num(in.s), Kind: Input,
			Model:       "every candidate is tested against the filter; the wallet's N are among them",
			Assumptions: "the default, 56 million, is the number of public keys on the chain in 2015",
			Source:      "--candidates; default from " + srcNick},
		{ID: "input.filters", Label: "filters collected from restarts (K)", Value: Num(in.k), Kind: Input,
			Model:  "the adversary links K filters of the same wallet, each built after a restart with a fresh tweak",
			Source: "--filters"},
		{ID: "input.seed", Label: "seed", Value: Num(in.cfg.Seed), Text: strconv.FormatUint(in.cfg.Seed, 10), Kind: Input,
			Model:  "drives every random choice (keys, tweaks, sampled candidates and values); the report is deterministic in it",
			Source: "--seed"},
	}
}

// notes close the report: what every reader should keep in mind.
var notes = []string{
	"Every adversary here is passive and sees one client's traffic; network-level links (IP addresses, timing, peers shared across restarts) are not modelled and only add to the leaks.",
	"Candidate sets assume scripts and values spread uniformly over blocks. Real activity clusters (address reuse, common-input ownership, change outputs, timing), which shrinks candidate sets: they are upper bounds on anonymity, not guarantees.",
	"Sizes marked \"measured on embedded data\" come from the real blocks embedded in package testvectors: old or test-network Bitcoin blocks and a dozen Ethereum mainnet blocks. They are not one chain and not one scan; per-block costs on today's mainnet differ. Only numbers marked \"measured by a scan\" come from scans, and only when --measured gives their statistics.",
	"Numbers are rounded to six significant digits in report.json and the CSV files, and to four in the text.",
}
