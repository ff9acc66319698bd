package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chainsieve/chainsieve/ethlogs/scan/demo"
)

// TestEthScanFollowKill follows a chain that grows and reorganises with
// two runs side by side: one uninterrupted, one killed with SIGKILL at a
// pause point (in the range, between a head's rows and its commit, after
// a head) and resumed with --resume. After the same events and Ctrl-C
// (exit 0 for both), the two files must be byte-equal, removed rows
// included, in each format.
func TestEthScanFollowKill(t *testing.T) {
	if testing.Short() {
		t.Skip("child processes and a node of its own per case")
	}
	for _, format := range []string{"--json", "--csv", "--table"} {
		for _, pause := range []string{"emitted:1", "checkpoint:2", "head:1"} {
			t.Run(strings.TrimPrefix(format, "--")+"/"+pause, func(t *testing.T) {
				followKill(t, format, pause)
			})
		}
	}
}

func followKill(t *testing.T, format, pause string) {
	c, err := demo.StartWith(demo.Options{Blocks: 60, WS: true})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	dir := t.TempDir()
	args := func(name string, more ...string) []string {
		a := []string{"eth", "scan", "--rpc", c.WS, "--from", "40", "--follow", "--out", filepath.Join(dir, name), "--index", filepath.Join(dir, name+".index")}
		if format != "--table" {
			a = append(a, format)
		}
		return append(a, more...)
	}
	ref, _ := startChild(t, nil, "", args("ref")...)
	killed, _ := startChild(t, nil, pause, args("out")...)
	if !killed.kill(t, 0, true) {
		t.Fatalf("the run exited before its pause %s:\n%s", pause, killed.stderr.String())
	}
	resumed, _ := startChild(t, nil, "", args("out", "--resume")...)
	read := func(name string) []byte { b, _ := os.ReadFile(filepath.Join(dir, name)); return b }
	// settle waits until both files are equal and unchanged for 300 ms.
	settle := func(step string) {
		deadline := time.Now().Add(15 * time.Second)
		var last []byte
		stable := time.Now()
		for time.Now().Before(deadline) {
			a, b := read("ref"), read("out")
			if !bytes.Equal(a, b) || !bytes.Equal(a, last) || len(a) == 0 {
				last, stable = a, time.Now()
			} else if time.Since(stable) > 300*time.Millisecond {
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Fatalf("%s: the outputs differ or keep changing:\n%s\n---\n%s\nuninterrupted: %s\nresumed: %s", step, read("ref"), read("out"), ref.stderr.String(), resumed.stderr.String())
	}
	settle("after the range")
	for i, step := range []func() error{func() error { return c.Extend(3) }, func() error { return c.Reorg(2, 4) }, func() error { return c.Extend(2) }} {
		if err := step(); err != nil {
			t.Fatal(err)
		}
		settle("step " + string(rune('0'+i)))
	}
	for _, ch := range []*child{ref, resumed} {
		ch.cmd.Process.Signal(syscall.SIGINT)
		if code := ch.wait(t); code != exitOK {
			t.Fatalf("Ctrl-C: exit %d, want 0:\n%s", code, ch.stderr.String())
		}
	}
	a, b := read("ref"), read("out")
	if !bytes.Equal(a, b) {
		t.Fatalf("resumed output differs from the uninterrupted one:\n%s\n---\n%s", a, b)
	}
	if !bytes.Contains(a, []byte("removed")) || !bytes.Contains(bytes.ToLower(a), []byte("true")) && format != "--table" {
		t.Errorf("no removed row:\n%s", a)
	}
	t.Logf("%d bytes, equal; resumed run: %s", len(a), finalLine(resumed.stderr.String()))
}

func finalLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}
