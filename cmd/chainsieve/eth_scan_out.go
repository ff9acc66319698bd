package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/chainsieve/chainsieve/core/flock"
	"github.com/chainsieve/chainsieve/ethlogs/scan"
)

// ethOutput is where eth scan's logs go: stdout, or the file --out names.
// Where that is a regular file this process can read back, the output is
// resumable (eth_scan_resume.go): it holds the file's lock, so that one
// run at a time writes it, and keeps the resume record up to date.
type ethOutput struct {
	w    io.Writer // stdout, or the --out file
	buf  *bufio.Writer
	name string   // the --out path, or "standard output"
	path string   // the --out path
	own  *os.File // the --out file, closed here

	// Resumable outputs only.
	back    *os.File // the file opened for reading back, holding its lock
	seek    io.Seeker
	store   resumeStore
	rec     *resumeRecord
	sum     hash.Hash // SHA-256 of the bytes from rec.Start to size
	size    int64     // the end of the bytes written
	pending *scan.Checkpoint
	last    time.Time // of the last commit

	werr error // the first write error: nothing after it is committed
}

// commitEvery is how often, at most, a checkpoint is made durable during
// a scan: each commit syncs the file and writes a record. The first and
// the last are always made, and one on every stop.
const commitEvery = 200 * time.Millisecond

// outputError is a refusal to write or resume an output, with its exit
// code.
type outputError struct {
	code int
	msg  string
}

func (e *outputError) Error() string { return e.msg }

func refuse(code int, format string, args ...any) error {
	return &outputError{code, fmt.Sprintf(format, args...)}
}

// openEthOutput opens the output of a run: --out path (created, and
// truncated unless resuming) or stdout. With resume it checks the record
// against the file and returns the checkpoint to continue, nil where the
// stopped run had not begun its scan.
func openEthOutput(stdout io.Writer, path string, resume bool, indexDir, command string) (*ethOutput, *scan.Checkpoint, error) {
	o := &ethOutput{w: stdout, name: "standard output", store: newResumeStore(indexDir)}
	if path != "" {
		if err := o.openPath(path); err != nil {
			return nil, nil, err
		}
	} else if err := o.openStdout(stdout); err != nil {
		return nil, nil, err
	}
	o.buf = bufio.NewWriterSize(sink{o}, 64<<10)
	if o.back == nil {
		if resume {
			o.close()
			return nil, nil, refuse(exitUsage, "--resume appends to the file a stopped run wrote: it needs --out FILE or standard output redirected to a regular file (>> FILE); %s is not one this run can read back", o.name)
		}
		return o, nil, nil
	}
	ck, err := o.begin(resume, command)
	if err != nil {
		o.close()
		return nil, nil, err
	}
	return o, ck, nil
}

// openPath opens --out: a regular file is resumable; anything else (a
// FIFO, a device) is only written.
func (o *ethOutput) openPath(path string) error {
	o.name, o.path = path, path
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return refuse(exitFailure, "--out: %v", err)
		}
		o.w, o.own = f, f
		return nil
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644) // missing: a run killed before it made one
	if err != nil {
		return refuse(exitFailure, "--out: %v", err)
	}
	o.w, o.own, o.back, o.seek = f, f, f, f
	return nil
}

// openStdout makes stdout resumable where it is a regular file that can
// be opened again for reading (Linux's /proc/self/fd).
func (o *ethOutput) openStdout(stdout io.Writer) error {
	f, ok := stdout.(*os.File)
	if !ok {
		return nil
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	back, err := os.Open("/proc/self/fd/" + strconv.Itoa(int(f.Fd())))
	if err != nil {
		return nil
	}
	if bi, err := back.Stat(); err != nil || !os.SameFile(fi, bi) {
		back.Close()
		return nil
	}
	o.back, o.seek = back, f
	return nil
}

// begin takes the file's lock and starts its record: for a plain run at
// the file's start (--out, truncated) or its end (stdout); for --resume
// where the stopped run's committed bytes end.
func (o *ethOutput) begin(resume bool, command string) (*scan.Checkpoint, error) {
	fi, err := o.back.Stat()
	if err != nil {
		return nil, refuse(exitFailure, "%s: %v", o.name, err)
	}
	id, ok := fileID(fi)
	if !ok { // not resumable on this system
		if o.back != o.own {
			o.back.Close()
		}
		o.back = nil
		if resume {
			return nil, refuse(exitUsage, "--resume: files have no identity on this system")
		}
		return nil, nil
	}
	if ok, err := flock.TryLock(o.back, flock.Exclusive); err != nil || !ok {
		holder := ""
		if r, _ := o.store.load(id); r != nil {
			holder = fmt.Sprintf(" (pid %d)", r.PID)
		}
		return nil, refuse(exitFailure, "%s is being written by another eth scan%s: one run at a time writes a file%s", o.name, holder, errText(err))
	}
	o.store.prune()
	o.rec = &resumeRecord{Command: command, Output: o.name, File: id, PID: os.Getpid()}
	if resume {
		return o.resume(fi.Size())
	}
	return nil, o.fresh(fi.Size())
}

// fresh starts the record of a run writing the whole answer: --out from
// its start, stdout from where its bytes go. The record comes first: a
// run killed before it wrote a record wrote nothing, and one killed
// before emptying --out left a record that commits none of its bytes.
func (o *ethOutput) fresh(size int64) error {
	var err error
	if o.own == nil {
		if o.rec.Start, err = o.stdoutStart(size); err != nil {
			return refuse(exitFailure, "standard output: %v", err)
		}
	}
	o.sum, o.size, o.rec.Scan = sha256.New(), o.rec.Start, nil
	o.rec.Size, o.rec.SHA256 = o.size, hex.EncodeToString(o.sum.Sum(nil))
	if err := o.save(); err != nil {
		return err
	}
	if o.own != nil {
		if err := o.own.Truncate(0); err != nil {
			return refuse(exitFailure, "--out: %v", err)
		}
	}
	return nil
}

// stdoutStart is where this run's bytes begin in the file behind stdout:
// at its end when it appends (>>), else at its offset (>).
func (o *ethOutput) stdoutStart(size int64) (int64, error) {
	if appends(o.w.(*os.File)) {
		return size, nil
	}
	return o.seek.Seek(0, io.SeekCurrent)
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return ": " + err.Error()
}

// resume checks the stopped run's record against the file, which now
// holds size bytes, cuts what it did not commit, and positions this run
// after what it did.
func (o *ethOutput) resume(size int64) (*scan.Checkpoint, error) {
	rec, err := o.store.load(o.rec.File)
	switch {
	case err != nil:
		return nil, refuse(exitFailure, "--resume: %v", err)
	case rec == nil && (size == 0 || o.own == nil):
		// A run records its output before writing any of it: with no
		// record, nothing of this command's output is there (its run was
		// killed first, or never ran), and the whole answer follows.
		return nil, o.fresh(size)
	case rec == nil:
		return nil, refuse(exitFailure, "--resume: no stopped scan is recorded for %s (it holds %d bytes): run without --resume to start over", o.name, size)
	case rec.Command != o.rec.Command:
		return nil, refuse(exitFailure, "--resume: %s holds the output of another command (%s); this one is %s: run it without --resume to start over", o.name, rec.Command, o.rec.Command)
	case size < rec.Size:
		return nil, refuse(exitFailure, "--resume: %s holds %d bytes, fewer than the %d the stopped run wrote: it was truncated (> instead of >>?) or replaced; run without --resume to start over", o.name, size, rec.Size)
	}
	sum := sha256.New()
	if _, err := io.Copy(sum, io.NewSectionReader(o.back, rec.Start, rec.Size-rec.Start)); err != nil {
		return nil, refuse(exitFailure, "--resume: reading %s: %v", o.name, err)
	}
	if hex.EncodeToString(sum.Sum(nil)) != rec.SHA256 {
		return nil, refuse(exitFailure, "--resume: bytes %d to %d of %s are not those the stopped run wrote (changed since): run without --resume to start over", rec.Start, rec.Size, o.name)
	}
	o.rec.Start, o.rec.Size, o.rec.SHA256, o.rec.Scan = rec.Start, rec.Size, rec.SHA256, rec.Scan
	o.sum, o.size = sum, rec.Size
	if rec.Scan != nil && rec.Scan.Done() {
		return rec.Scan, nil // complete: the file is left alone
	}
	if size > rec.Size {
		if err := o.truncate(rec.Size); err != nil {
			return nil, refuse(exitFailure, "--resume: cutting the uncommitted end of %s: %v", o.name, err)
		}
	}
	if _, err := o.seek.Seek(rec.Size, io.SeekStart); err != nil {
		return nil, refuse(exitFailure, "--resume: %s: %v", o.name, err)
	}
	return rec.Scan, nil
}

// truncate cuts the file, through the descriptor written (the one read
// back may be read-only).
func (o *ethOutput) truncate(n int64) error { return o.w.(*os.File).Truncate(n) }

// resumable reports whether a stopped run of this output can be resumed.
func (o *ethOutput) resumable() bool { return o.rec != nil }

// checkpoint is scan.Config.Checkpoint: the logs emitted are written, and
// the checkpoint made durable with them now or at the next commit.
func (o *ethOutput) checkpoint(c scan.Checkpoint) error {
	if err := o.flush(); err != nil {
		return err
	}
	if o.rec == nil {
		return nil
	}
	o.pending = &c
	// A follow commits each head: it then waits for the next one, and a
	// checkpoint held back until then would leave a stop replaying heads
	// the node may since have replaced.
	if o.rec.Scan != nil && !c.Done() && !c.Following() && time.Since(o.last) < commitEvery {
		return nil
	}
	return o.commit()
}

// commit syncs the file and records the pending checkpoint with the bytes
// written: data first, so that the record never claims more than the file
// holds.
func (o *ethOutput) commit() error {
	if o.pending == nil || o.werr != nil {
		return o.werr
	}
	if err := o.back.Sync(); err != nil { // fsync flushes the file, whichever descriptor
		return o.fail(err)
	}
	o.rec.Size, o.rec.SHA256, o.rec.Scan = o.size, hex.EncodeToString(o.sum.Sum(nil)), o.pending
	o.pending, o.last = nil, time.Now()
	return o.save()
}

func (o *ethOutput) save() error {
	if err := o.store.save(o.rec); err != nil {
		return fmt.Errorf("the resume record of %s: %w", o.name, err)
	}
	return nil
}

func (o *ethOutput) flush() error {
	if err := o.buf.Flush(); err != nil {
		return o.fail(err)
	}
	return o.werr
}

func (o *ethOutput) fail(err error) error {
	if o.werr == nil {
		o.werr = fmt.Errorf("writing %s: %w", o.name, err)
	}
	return o.werr
}

// finish ends the run's output: what is written is flushed and, if no
// write failed, the last checkpoint committed; --out is closed. An error
// means the output is not what the run reported.
func (o *ethOutput) finish() error {
	err := o.flush()
	if err == nil && o.rec != nil {
		err = o.commit()
	}
	return errors.Join(err, o.close())
}

func (o *ethOutput) close() error {
	var err error
	if o.back != nil && o.back != o.own {
		o.back.Close()
	}
	if o.own != nil {
		if cerr := o.own.Close(); cerr != nil {
			err = fmt.Errorf("closing %s: %w", o.name, cerr)
		}
		o.own = nil
	}
	o.back = nil
	return err
}

// sink counts and hashes the bytes that reach the output.
type sink struct{ o *ethOutput }

func (s sink) Write(p []byte) (int, error) {
	n, err := s.o.w.Write(p)
	if s.o.sum != nil {
		s.o.sum.Write(p[:n])
	}
	s.o.size += int64(n)
	if err != nil {
		return n, s.o.fail(err)
	}
	return n, nil
}
