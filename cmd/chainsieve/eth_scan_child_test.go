package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The test binary doubles as the CLI for tests that need a process of
// its own: to kill it with SIGKILL, or to give it a real pipe or file as
// stdout.
const (
	childEnv = "CHAINSIEVE_TEST_CLI"   // set: run the CLI with os.Args[1:]
	pauseEnv = "CHAINSIEVE_TEST_PAUSE" // "POINT:N": stop the N-th time POINT is reached (env.pause)
	pausedAt = "CHAINSIEVE-TEST-PAUSED"
)

func init() {
	if os.Getenv(childEnv) == "" {
		return
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	e := &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv, testHook: pauseHook(os.Getenv(pauseEnv))}
	code := runWith(ctx, e, os.Args[1:])
	stop()
	os.Exit(code)
}

// pauseHook returns a hook that, the n-th time the point is reached, says
// so on stderr and waits to be killed.
func pauseHook(spec string) func(string) {
	point, nth, _ := strings.Cut(spec, ":")
	n, _ := strconv.Atoi(nth)
	seen := 0
	return func(p string) {
		if p != point {
			return
		}
		if seen++; seen == n {
			fmt.Fprintf(os.Stderr, "\n%s %s\n", pausedAt, spec)
			select {}
		}
	}
}

// child is a CLI process started by a test.
type child struct {
	cmd    *exec.Cmd
	paused chan struct{} // closed when it reports its pause
	exited chan struct{} // closed when its stderr ends
	stderr strings.Builder
}

// startChild runs the CLI with args, stdout to the given file (nil: a
// pipe the caller reads from cmd's StdoutPipe), pausing as pause says
// ("" for never).
func startChild(t *testing.T, stdout *os.File, pause string, args ...string) (*child, io.ReadCloser) {
	t.Helper()
	c := &child{cmd: exec.Command(os.Args[0], args...), paused: make(chan struct{}), exited: make(chan struct{})}
	c.cmd.Env = append(os.Environ(), childEnv+"=1", pauseEnv+"="+pause)
	var out io.ReadCloser
	if stdout != nil {
		c.cmd.Stdout = stdout
	} else {
		var err error
		if out, err = c.cmd.StdoutPipe(); err != nil {
			t.Fatal(err)
		}
	}
	errPipe, err := c.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if c.cmd.ProcessState == nil {
			c.cmd.Process.Kill()
			c.cmd.Wait()
		}
	})
	go func() {
		defer close(c.exited)
		sc := bufio.NewScanner(errPipe)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), pausedAt) {
				close(c.paused)
			}
			c.stderr.WriteString(sc.Text() + "\n")
		}
	}()
	return c, out
}

// wait waits for the child's exit (a minute at most) and returns its exit
// code, -1 if a signal ended it.
func (c *child) wait(t *testing.T) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { <-c.exited; done <- c.cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(time.Minute):
		c.cmd.Process.Kill()
		t.Fatalf("%v did not exit within a minute:\n%s", c.cmd.Args, c.stderr.String())
	}
	return c.cmd.ProcessState.ExitCode()
}

// kill ends the child with SIGKILL, when it pauses if pausing is set, or
// after delay; it reports whether the child was killed before it exited.
func (c *child) kill(t *testing.T, delay time.Duration, pausing bool) bool {
	t.Helper()
	var timer <-chan time.Time
	if !pausing {
		timer = time.After(delay)
	}
	select {
	case <-c.paused:
	case <-timer:
	case <-c.exited:
		c.wait(t)
		return false
	case <-time.After(time.Minute):
		t.Fatalf("%v neither paused nor exited within a minute:\n%s", c.cmd.Args, c.stderr.String())
	}
	c.cmd.Process.Kill() // SIGKILL
	c.wait(t)
	return true
}
