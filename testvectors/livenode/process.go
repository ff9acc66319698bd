package livenode

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

const (
	// maxLines bounds the log lines kept in memory; the log file keeps all.
	maxLines = 20000
	// tailLines is how much of a node's log a failed test prints.
	tailLines = 60
	// stopTimeout bounds a node's graceful shutdown before it is killed.
	stopTimeout = 15 * time.Second
)

// process is a node's operating-system process and the lines it prints
// on stdout and stderr, which also go to <dir>/<name>.log.
type process struct {
	name   string
	cmd    *exec.Cmd
	rpc    *RPC          // closed before the stop, once the node answered
	exited chan struct{} // closed once Wait has returned
	err    error         // Wait's result, valid after exited

	mu      sync.Mutex
	lines   []string      // printed lines, the oldest dropped past maxLines
	dropped int           // how many lines were dropped from the front
	eof     bool          // output closed
	changed chan struct{} // closed and replaced on each new line and at EOF
}

// startProcess starts bin in dir. It is stopped by stop, or killed with
// the test process where the platform allows (see sysProcAttr).
func startProcess(dir, name, bin string, args ...string) (*process, error) {
	logf, err := os.Create(filepath.Join(dir, name+".log"))
	if err != nil {
		return nil, fmt.Errorf("livenode: %s: %v", name, err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		logf.Close()
		return nil, fmt.Errorf("livenode: %s: %v", name, err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir, cmd.Stdout, cmd.Stderr = dir, w, w
	cmd.SysProcAttr = sysProcAttr()
	if err := cmd.Start(); err != nil {
		logf.Close()
		r.Close()
		w.Close()
		return nil, fmt.Errorf("livenode: start %s: %v", name, err)
	}
	w.Close() // the child holds the write end now
	p := &process{name: name, cmd: cmd, exited: make(chan struct{}), changed: make(chan struct{})}
	go p.read(io.TeeReader(r, logf), func() { r.Close(); logf.Close() })
	go func() { p.err = cmd.Wait(); close(p.exited) }()
	return p, nil
}

// read collects output lines until the child closes its end.
func (p *process) read(r io.Reader, done func()) {
	defer done()
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		p.mu.Lock()
		p.lines = append(p.lines, sc.Text())
		if len(p.lines) > maxLines {
			n := len(p.lines) - maxLines/2
			p.lines = append(p.lines[:0:0], p.lines[n:]...)
			p.dropped += n
		}
		close(p.changed)
		p.changed = make(chan struct{})
		p.mu.Unlock()
	}
	io.Copy(io.Discard, r) // a line over 1 MiB: keep draining, never block the child
	p.mu.Lock()
	p.eof = true
	close(p.changed)
	p.mu.Unlock()
}

// waitFor returns the submatches of the first line matching re. It fails
// when ctx ends or the process closes its output first.
func (p *process) waitFor(ctx context.Context, re *regexp.Regexp) ([]string, error) {
	next := 0 // absolute index of the next line to look at
	for {
		p.mu.Lock()
		next = max(next, p.dropped)
		for ; next < p.dropped+len(p.lines); next++ {
			if m := re.FindStringSubmatch(p.lines[next-p.dropped]); m != nil {
				p.mu.Unlock()
				return m, nil
			}
		}
		eof, changed := p.eof, p.changed
		p.mu.Unlock()
		if eof {
			return nil, fmt.Errorf("livenode: %s exited before logging %q", p.name, re)
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("livenode: %s did not log %q: %w", p.name, re, ctx.Err())
		case <-changed:
		}
	}
}

// tail returns the last n lines the process printed.
func (p *process) tail(n int) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return strings.Join(p.lines[max(0, len(p.lines)-n):], "\n")
}

// stop interrupts the process, the signal nodes treat as a clean shutdown,
// and kills it if it is still running after timeout.
func (p *process) stop(timeout time.Duration) error {
	select {
	case <-p.exited:
		return fmt.Errorf("livenode: %s had already exited: %v", p.name, p.err)
	default:
	}
	p.cmd.Process.Signal(os.Interrupt)
	select {
	case <-p.exited:
		return nil
	case <-time.After(timeout):
	}
	p.cmd.Process.Kill()
	select {
	case <-p.exited:
		return fmt.Errorf("livenode: %s ignored SIGINT for %v and was killed", p.name, timeout)
	case <-time.After(5 * time.Second):
		return fmt.Errorf("livenode: %s survived SIGKILL", p.name)
	}
}

// stopOnCleanup registers a cleanup that stops the process and prints the
// tail of its log if the test failed or the stop went wrong. Register it
// after t.TempDir so that it runs before the directory is removed.
func (p *process) stopOnCleanup(t testing.TB) {
	t.Cleanup(func() {
		if p.rpc != nil {
			// Bitcoin Core's HTTP server waits for idle keep-alive
			// connections before it exits.
			p.rpc.closeIdle()
		}
		err := p.stop(stopTimeout)
		if err != nil {
			t.Log(err)
		}
		if err != nil || t.Failed() {
			t.Logf("livenode: last lines of %s's log:\n%s", p.name, p.tail(tailLines))
		}
	})
}

// tail returns the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
