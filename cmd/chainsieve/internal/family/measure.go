package family

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"
)

// Config says what to measure.
type Config struct {
	N      uint64  // elements inserted
	Eps    float64 // target false-positive rate
	Trials uint64  // random non-members tested; 0 skips the measured rate
	Seed   uint64  // the elements and non-members derive from it
	// Rounds of timing; 0 skips timing. Each round builds a fresh structure
	// and looks up every member and n non-members; the fastest round counts,
	// since on a shared machine noise only ever adds time.
	Rounds int
}

// Result is one structure measured at one rate.
type Result struct {
	Structure      string  `json:"structure"`
	Package        string  `json:"package"`
	N              uint64  `json:"n"`
	Eps            float64 `json:"eps"`
	Params         string  `json:"params"`
	Bits           uint64  `json:"bits"`
	BitsPerElement float64 `json:"bits_per_element"`
	EstimatedFPR   float64 `json:"estimated_fpr"`
	Trials         uint64  `json:"trials,omitempty"`
	FalsePositives uint64  `json:"false_positives,omitempty"`
	MeasuredFPR    float64 `json:"measured_fpr,omitempty"`
	InsertNs       float64 `json:"insert_ns,omitempty"`
	LookupNs       float64 `json:"lookup_ns,omitempty"`
	LookupAbsentNs float64 `json:"lookup_absent_ns,omitempty"`
}

// elementSize is the length of the random elements: the size of the hashes
// and scripts the protocol filters hold.
const elementSize = 32

// batch is how many non-members are drawn and tested at a time.
const batch = 1 << 14

// Measure builds s with cfg.N random elements at rate cfg.Eps, checks that
// every element tests positive, and measures what cfg asks for.
func Measure(s Structure, cfg Config) (Result, error) {
	if cfg.N == 0 {
		return Result{}, errNoElements
	}
	r := rand.New(rand.NewPCG(cfg.Seed, 0x6661_6d69_6c79)) // "family"
	members := randomElements(r, int(cfg.N))
	f, err := s.make(cfg.N, cfg.Eps)
	if err != nil {
		return Result{}, fmt.Errorf("family: %s at n=%d, ε=%g: %w", s.Name, cfg.N, cfg.Eps, err)
	}
	if err := f.build(members); err != nil {
		return Result{}, fmt.Errorf("family: building %s: %w", s.Name, err)
	}
	if got := positives(f, members); got != len(members) {
		return Result{}, fmt.Errorf("family: %s: %d false negatives among %d elements", s.Name, len(members)-got, len(members))
	}
	res := Result{Structure: s.Name, Package: s.Package, N: cfg.N, Eps: cfg.Eps, Params: f.params(),
		Bits: f.bits(), BitsPerElement: float64(f.bits()) / float64(cfg.N), EstimatedFPR: f.estimatedFPR()}
	if cfg.Trials > 0 {
		res.Trials = cfg.Trials
		res.FalsePositives = countFalsePositives(f, r, cfg.Trials)
		res.MeasuredFPR = float64(res.FalsePositives) / float64(cfg.Trials)
	}
	if cfg.Rounds > 0 {
		absent := randomElements(r, int(cfg.N))
		if err := timeRounds(s, cfg, members, absent, &res); err != nil {
			return Result{}, err
		}
	}
	return res, nil
}

// countFalsePositives tests trials fresh random elements. They are 256-bit
// random strings, so none is a member but with probability ~n·trials/2^256.
func countFalsePositives(f filter, r *rand.Rand, trials uint64) uint64 {
	buf := make([]byte, batch*elementSize)
	items := make([][]byte, batch) // views of buf, refilled for each batch
	for i := range items {
		items[i] = buf[i*elementSize : (i+1)*elementSize]
	}
	var count uint64
	for done := uint64(0); done < trials; {
		n := int(min(batch, trials-done))
		fillRandom(r, buf[:n*elementSize])
		count += uint64(positives(f, items[:n]))
		done += uint64(n)
	}
	return count
}

// timeRounds times building, member lookups and non-member lookups, keeping
// the fastest of cfg.Rounds rounds of each.
func timeRounds(s Structure, cfg Config, members, absent [][]byte, res *Result) error {
	var ins, hit, miss []float64
	per := float64(len(members))
	for range cfg.Rounds {
		f, err := s.make(cfg.N, cfg.Eps)
		if err != nil {
			return err
		}
		start := time.Now()
		if err := f.build(members); err != nil {
			return err
		}
		ins = append(ins, float64(time.Since(start).Nanoseconds())/per)
		start = time.Now()
		if positives(f, members) != len(members) {
			return fmt.Errorf("family: %s lost members while timing", s.Name)
		}
		hit = append(hit, float64(time.Since(start).Nanoseconds())/per)
		start = time.Now()
		positives(f, absent)
		miss = append(miss, float64(time.Since(start).Nanoseconds())/per)
	}
	res.InsertNs, res.LookupNs, res.LookupAbsentNs = slices.Min(ins), slices.Min(hit), slices.Min(miss)
	return nil
}

// positives counts the items f tests positive, in one batch query where f
// answers batches (a Golomb-coded set decodes once per query, so one-by-one
// lookups would cost O(n) each).
func positives(f filter, items [][]byte) int {
	if bt, ok := f.(batchTester); ok {
		return bt.countPositives(items)
	}
	n := 0
	for _, it := range items {
		if f.test(it) {
			n++
		}
	}
	return n
}

func randomElements(r *rand.Rand, n int) [][]byte {
	buf := make([]byte, n*elementSize)
	fillRandom(r, buf)
	els := make([][]byte, n)
	for i := range els {
		els[i] = buf[i*elementSize : (i+1)*elementSize : (i+1)*elementSize]
	}
	return els
}

func fillRandom(r *rand.Rand, b []byte) {
	for i := 0; i+8 <= len(b); i += 8 {
		binary.LittleEndian.PutUint64(b[i:], r.Uint64())
	}
}
