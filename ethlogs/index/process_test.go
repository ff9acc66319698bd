package index

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// childEnv makes the test binary a helper process: "hold:DIR" or
// "work:DIR:SEED:BLOCKS".
const childEnv = "CHAINSIEVE_INDEX_CHILD"

func child(role string) int {
	parts := strings.Split(role, ":")
	switch parts[0] {
	case "hold":
		x, err := Open(parts[1])
		if err != nil {
			fmt.Println(err)
			return 1
		}
		fmt.Println("locked")
		io.Copy(io.Discard, os.Stdin) // until killed
		x.Close()
		return 0
	case "work":
		seed, _ := strconv.ParseUint(parts[2], 10, 64)
		blocks, _ := strconv.Atoi(parts[3])
		if err := work(parts[1], seed, blocks); err != nil {
			fmt.Println(err)
			return 1
		}
		return 0
	}
	return 2
}

// sharedChain is the chain every worker appends from: the same seed, so
// that the blocks any of them appends are the same blocks.
func sharedChain(blocks int) *chain { return newChain(1234, 5, blocks) }

// work is one worker: until the index holds the whole chain, it either
// opens the index for writing (waiting for the lock), appends a random
// number of the next blocks (sometimes after cutting back into sealed
// blocks, which needs no snapshot open), checks its answers and closes;
// or opens a snapshot and checks its answers. Every answer must be the
// linear scan's over the blocks the index says it holds.
func work(dir string, seed uint64, blocks int) error {
	c := sharedChain(blocks)
	r := rand.New(rand.NewPCG(seed, 1))
	event := func(name string) { fmt.Println(name) } // the parent counts them, also a killed worker's
	for round := 0; ; round++ {
		if r.IntN(3) == 0 {
			x, err := OpenSnapshot(dir)
			if errors.As(err, new(*LockedError)) {
				event("refused")
				continue
			}
			event("snapshot")
			if err != nil {
				return err
			}
			err = c.verifyAgainst(x, r)
			x.Close()
			if err != nil {
				return fmt.Errorf("snapshot, round %d: %w", round, err)
			}
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		x, err := OpenWait(ctx, dir)
		cancel()
		if err != nil {
			return err
		}
		if x.Len() == uint64(blocks) {
			err := c.verifyAgainst(x, r)
			x.Close()
			return err
		}
		event("write")
		if x.Len() > SectionSize && r.IntN(5) == 0 {
			cut := c.first + uint64(r.IntN(int(x.sealed*SectionSize)))
			err := x.Truncate(cut)
			switch {
			case errors.As(err, new(*LockedError)):
				event("cut-refused")
			case err != nil:
				return fmt.Errorf("Truncate(%d): %w", cut, err)
			default:
				event("cut")
			}
		}
		from := int(x.Len())
		to := min(blocks, from+1+r.IntN(2*SectionSize))
		for i := from; i < to; i++ {
			if err := x.AppendBloom(c.first+uint64(i), c.hashes[i], c.parent(i), &c.blooms[i]); err != nil {
				return fmt.Errorf("AppendBloom(%d): %w", i, err)
			}
			if r.IntN(500) == 0 {
				x.flushTail() // let snapshots see a partial tail
			}
		}
		err = c.verifyAgainst(x, r)
		if err == nil {
			err = x.Close()
		}
		if err != nil {
			return fmt.Errorf("writer, round %d: %w", round, err)
		}
	}
}

// verifyAgainst compares the index with the chain: every hash, and the
// candidates of random queries over random ranges.
func (c *chain) verifyAgainst(x *Index, r *rand.Rand) error {
	n := int(x.Len())
	if n > len(c.blooms) {
		return fmt.Errorf("the index holds %d blocks, the chain has %d", n, len(c.blooms))
	}
	for i := 0; i < n; i += 1 + r.IntN(97) {
		if h, err := x.Hash(c.first + uint64(i)); err != nil || h != c.hashes[i] {
			return fmt.Errorf("WRONG: Hash(%d) = %s, %v, want %s", c.first+uint64(i), h, err, c.hashes[i])
		}
	}
	if n == 0 {
		return nil
	}
	for _, q := range c.queries(r) {
		m := q.Compile()
		a := r.IntN(n)
		b := a + r.IntN(n-a)
		got, err := x.Candidates(nil, m, c.first+uint64(a), c.first+uint64(b))
		want := m.Scan(nil, c.first+uint64(a), c.blooms[a:b+1])
		if err != nil || !slices.Equal(got, want) {
			return fmt.Errorf("WRONG: Candidates(%d..%d) = %d blocks, %v, want %d", a, b, len(got), err, len(want))
		}
	}
	return nil
}

// TestConcurrentProcesses runs 2 to 4 worker processes (this test binary,
// re-executed) appending to and querying one index directory, and kills a
// random running one with SIGKILL now and then, starting another in its
// place. No answer may differ from the linear scan, and the index ends
// holding the whole chain, every block exactly once.
func TestConcurrentProcesses(t *testing.T) {
	needFlock(t)
	workers, blocks, kills := 4, 24*SectionSize+123, 8
	if testing.Short() {
		workers, blocks, kills = 2, 3*SectionSize+45, 1
	}
	dir := t.TempDir()
	x, err := Create(dir, sharedChain(1).first)
	if err != nil {
		t.Fatal(err)
	}
	x.Close()
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	type proc struct {
		cmd  *exec.Cmd
		out  *strings.Builder
		done chan error
	}
	var all []*proc
	start := func() *proc {
		seed++
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), fmt.Sprintf("%s=work:%s:%d:%d", childEnv, dir, seed, blocks))
		p := &proc{cmd: cmd, out: &strings.Builder{}, done: make(chan error, 1)}
		cmd.Stdout, cmd.Stderr = p.out, p.out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go func() { p.done <- cmd.Wait() }()
		all = append(all, p)
		return p
	}
	running := make([]*proc, workers)
	for i := range running {
		running[i] = start()
	}
	deadline := time.Now().Add(3 * time.Minute)
	r := rand.New(rand.NewPCG(seed, 2))
	killed := 0
	for i := 0; i < len(running); {
		p := running[i]
		select {
		case err := <-p.done:
			if err != nil {
				t.Errorf("worker: %v: %s", err, p.out.String())
			}
			i++
			continue
		case <-time.After(time.Duration(50+r.IntN(300)) * time.Millisecond):
		}
		if time.Now().After(deadline) {
			for _, p := range running[i:] {
				p.cmd.Process.Kill()
			}
			t.Fatal("the workers did not finish in 3 minutes")
		}
		if killed < kills { // kill a random worker still running
			j := i + r.IntN(len(running)-i)
			running[j].cmd.Process.Kill()
			<-running[j].done
			running[j] = start()
			killed++
		}
	}
	events := map[string]int{}
	for _, p := range all {
		for _, line := range strings.Split(p.out.String(), "\n") {
			events[line]++
		}
	}
	t.Logf("%d workers, %d killed and replaced: %d write rounds, %d snapshots checked beside them (%d refused during a cut), %d cuts into sealed blocks (%d refused beside a snapshot)",
		workers, killed, events["write"], events["snapshot"], events["refused"], events["cut"], events["cut-refused"])
	y, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer y.Close()
	c := sharedChain(blocks)
	if y.Len() != uint64(blocks) {
		t.Fatalf("the index ends with %d blocks, want %d", y.Len(), blocks)
	}
	for i := range c.hashes {
		if h, err := y.Hash(c.first + uint64(i)); err != nil || h != c.hashes[i] {
			t.Fatalf("Hash(%d) = %s, %v, want %s", c.first+uint64(i), h, err, c.hashes[i])
		}
	}
	c.checkSame(t, y, seed)
	if err := y.Verify(); err != nil {
		t.Error(err)
	}
}
