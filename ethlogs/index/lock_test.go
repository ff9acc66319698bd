package index

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

func TestSecondWriterGetsLockedError(t *testing.T) {
	needFlock(t)
	dir := t.TempDir()
	x, err := Create(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	for name, open := range map[string]func() (*Index, error){
		"Open":   func() (*Index, error) { return Open(dir) },
		"Create": func() (*Index, error) { return Create(dir, 0) },
	} {
		_, err := open()
		var le *LockedError
		if !errors.As(err, &le) || le.PID != os.Getpid() || !strings.Contains(le.Command, "index.test") || time.Since(le.Since) > time.Minute {
			t.Errorf("%s of a held index = %v, want a *LockedError naming this process", name, err)
		}
	}
	if err := Remove(dir); !errors.As(err, new(*LockedError)) {
		t.Errorf("Remove of a held index = %v, want a *LockedError", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := OpenWait(ctx, dir); !errors.Is(err, context.DeadlineExceeded) || !errors.As(err, new(*LockedError)) {
		t.Errorf("OpenWait past its deadline = %v, want DeadlineExceeded and a *LockedError", err)
	}
	time.AfterFunc(100*time.Millisecond, func() { x.Close() })
	y, err := OpenWait(context.Background(), dir)
	if err != nil {
		t.Fatalf("OpenWait after the holder closed = %v", err)
	}
	y.Close()
}

// TestDeadHolderNeverBlocks kills a process holding the writer lock: while
// it lives, Open names it; once it is dead, Open succeeds at once.
func TestDeadHolderNeverBlocks(t *testing.T) {
	needFlock(t)
	dir := t.TempDir()
	x, err := Create(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	x.Close()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"=hold:"+dir)
	stdout, _ := cmd.StdoutPipe()
	stdin, _ := cmd.StdinPipe() // held open: the holder waits on it until killed
	defer stdin.Close()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || line != "locked\n" {
		t.Fatalf("the holder said %q, %v", line, err)
	}
	var le *LockedError
	if _, err := Open(dir); !errors.As(err, &le) || le.PID != cmd.Process.Pid {
		t.Fatalf("Open while pid %d holds the lock = %v, want a *LockedError naming it", cmd.Process.Pid, err)
	}
	cmd.Process.Kill()
	cmd.Wait()
	start := time.Now()
	y, err := Open(dir)
	if err != nil {
		t.Fatalf("Open after the holder died = %v", err)
	}
	y.Close()
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Open after the holder died took %v", d)
	}
}

// TestSnapshotBesideWriter: a snapshot answers for the blocks committed
// when it opened while the writer goes on appending; a cut into sealed
// blocks waits for snapshots to close.
func TestSnapshotBesideWriter(t *testing.T) {
	needFlock(t)
	dir := t.TempDir()
	c := newChain(60, 3, 3*SectionSize+10)
	x, err := Create(dir, c.first)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	n := SectionSize + 300
	whole := *c
	c.blooms, c.hashes = c.blooms[:n], c.hashes[:n]
	c.appendTo(t, x, 0)
	x.flushTail() // what a snapshot sees: sealed sections and flushed tail records
	y, err := OpenSnapshot(dir)
	if err != nil {
		t.Fatal(err)
	}
	if y.Len() != uint64(n) {
		t.Fatalf("snapshot Len() = %d, want %d", y.Len(), n)
	}
	whole.appendTo(t, x, n)
	c.checkSame(t, y, 60)
	whole.checkSame(t, x, 61)
	if err := y.AppendBloom(0, whole.hashes[0], whole.parent(0), &whole.blooms[0]); err == nil {
		t.Error("AppendBloom on a snapshot = nil error")
	}
	var le *LockedError
	if err := x.Truncate(c.first + 10); !errors.As(err, &le) || !le.Readers {
		t.Errorf("Truncate into sealed blocks beside a snapshot = %v, want a *LockedError for readers", err)
	}
	if err := x.Truncate(x.tailStart() + 5); err != nil {
		t.Errorf("Truncate inside the tail beside a snapshot = %v", err)
	}
	c.checkSame(t, y, 62)
	y.Close()
	if err := x.Truncate(c.first + 10); err != nil {
		t.Errorf("Truncate after the snapshot closed = %v", err)
	}
}

func TestLockedErrorMessage(t *testing.T) {
	tests := []struct {
		name, record, want string
	}{
		{"recorded", `{"pid":42,"since":"2026-11-25T09:32:00Z","cmd":["chainsieve","eth","scan"]}`,
			"index: d is locked by pid 42 (chainsieve eth scan) since 2026-11-25 09:32:00 UTC"},
		{"escapes", `{"pid":7,"since":"2026-11-25T09:32:00Z","cmd":["a\u001b]0;title\u0007"]}`,
			`index: d is locked by pid 7 (a\x1b]0;title\x07) since 2026-11-25 09:32:00 UTC`},
		{"being written", `{"pid":4`, "index: d is locked by another process"},
		{"empty", ``, "index: d is locked by another process"},
	}
	for _, tt := range tests {
		if got := lockedError("d", []byte(tt.record)).Error(); got != tt.want {
			t.Errorf("%s: Error() = %q, want %q", tt.name, got, tt.want)
		}
	}
	long := `{"pid":1,"cmd":["` + strings.Repeat("x", 5000) + `"]}`
	if got := lockedError("d", []byte(long)).Error(); len(got) > 400 {
		t.Errorf("Error() of a long command has %d bytes, want it clipped", len(got))
	}
}

// TestSyncReachesTheDisk runs Sync with the real fsync: the sync record
// then names every sealed section, and a clean reopen checks none.
func TestSyncReachesTheDisk(t *testing.T) {
	saved := fsync
	fsync = (*os.File).Sync
	defer func() { fsync = saved }()
	dir := t.TempDir()
	c := newChain(61, 0, SectionSize+3)
	c.build(t, dir)
	x, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	if x.synced != 1 || x.sealed != 1 {
		t.Errorf("after Close and Open: %d sections synced of %d, want 1 of 1", x.synced, x.sealed)
	}
}
