package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/chainsieve/chainsieve/ethlogs/scan"
)

// The exactly-once contract (docs/eth-scan.md, "Resume"): a plain run
// prints the whole answer. A run into a regular file keeps a resume record
// of it: the file's identity, how many of its bytes are committed and
// their SHA-256, and the scan's checkpoint, which pins the question (the
// chain, the anchor by hash, the range by number). The file's bytes are
// written and synced before the record says so. --resume checks the
// record against the file, cuts the uncommitted tail, and continues the
// pinned question, so that the stopped run's output and the resumed run's
// are the uninterrupted output, byte for byte.

// resumeRecord is what a resumable run keeps of its output.
type resumeRecord struct {
	Version int              `json:"version"`
	Command string           `json:"command"` // the flags that shape the answer (commandKey)
	Output  string           `json:"output"`  // the file, for messages
	File    string           `json:"file"`    // its identity (fileID)
	PID     int              `json:"pid"`     // the run that wrote the record
	Start   int64            `json:"start"`   // the offset of the run's first byte
	Size    int64            `json:"size"`    // the end of its committed bytes
	SHA256  string           `json:"sha256"`  // of the bytes Start to Size
	Scan    *scan.Checkpoint `json:"scan,omitempty"`
	Time    time.Time        `json:"time"`
}

const resumeVersion = 1

// resumeStore is the directory of resume records, beside the index.
type resumeStore struct{ dir string }

func newResumeStore(indexDir string) resumeStore {
	return resumeStore{filepath.Join(indexDir, "resume")}
}

// path is where the record of the file with this identity lives.
func (s resumeStore) path(id string) string {
	sum := sha256.Sum256([]byte(id))
	return filepath.Join(s.dir, hex.EncodeToString(sum[:12])+".json")
}

// load reads the record of a file; nil when there is none.
func (s resumeStore) load(id string) (*resumeRecord, error) {
	data, err := os.ReadFile(s.path(id))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var r resumeRecord
	if err := json.Unmarshal(data, &r); err != nil || r.Version != resumeVersion || r.File != id {
		return nil, fmt.Errorf("the resume record %s is unreadable or of another version", s.path(id))
	}
	return &r, nil
}

// save replaces the record atomically: a temporary file of its own
// (several runs may save records of different files at once), synced,
// renamed over the old one, and the directory synced.
func (s resumeStore) save(r *resumeRecord) error {
	if err := os.MkdirAll(s.dir, 0o755); err != nil {
		return err
	}
	r.Version, r.Time = resumeVersion, time.Now().UTC().Truncate(time.Millisecond)
	data, err := json.Marshal(r)
	if err != nil {
		return err
	}
	path := s.path(r.File)
	tmp, err := os.CreateTemp(s.dir, filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	err = errors.Join(err, tmp.Sync(), tmp.Close())
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return syncDir(s.dir)
}

// prune removes records of runs nobody resumed within 30 days, and
// temporary files a killed run left.
func (s resumeStore) prune() {
	entries, _ := os.ReadDir(s.dir)
	for _, e := range entries {
		info, err := e.Info()
		if err != nil {
			continue
		}
		age := time.Since(info.ModTime())
		if strings.HasSuffix(e.Name(), ".tmp") && age > time.Hour || strings.HasSuffix(e.Name(), ".json") && age > 30*24*time.Hour {
			os.Remove(filepath.Join(s.dir, e.Name()))
		}
	}
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if err != nil && (errors.Is(err, errors.ErrUnsupported) || errors.Is(err, fs.ErrInvalid)) {
		err = nil
	}
	return errors.Join(err, d.Close())
}

// resumeFree are the flags a resumed run may change: they choose the
// endpoints, the index, the tuning and the side outputs, never the
// answer (the anchor and the range are pinned by the checkpoint).
var resumeFree = map[string]bool{"rpc": true, "index": true, "concurrency": true, "batch": true,
	"timeout": true, "retries": true, "stats": true, "resume": true, "out": true,
	"confirm-rpc": true, "confirm-min": true, "poll": true}

// commandKey writes the arguments that shape the answer in one form:
// --name=value for each flag in the order given, positionals as they are,
// without the flags a resumed run may change.
func commandKey(fs *flag.FlagSet, args []string) string {
	var kept []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			kept = append(kept, args[i:]...)
			break
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		fl := fs.Lookup(name)
		if !strings.HasPrefix(a, "-") || fl == nil {
			kept = append(kept, strconv.Quote(a))
			continue
		}
		if b, ok := fl.Value.(interface{ IsBoolFlag() bool }); !hasValue && !(ok && b.IsBoolFlag()) && i+1 < len(args) {
			i++
			value, hasValue = args[i], true
		}
		if resumeFree[name] {
			continue
		}
		if hasValue {
			kept = append(kept, "--"+name+"="+strconv.Quote(value))
		} else {
			kept = append(kept, "--"+name)
		}
	}
	return strings.Join(kept, " ")
}
