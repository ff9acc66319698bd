// Package verify checks published test vectors with chainsieve's own code.
//
// [File] recognises a vector file's format (see package testvectors), runs
// every vector through the protocol package that implements it (bip37, gcs,
// ethlogs, gcs/spv/descriptor) and returns one [Result] per vector. A vector that cannot be checked
// yet is reported as [Unchecked], which callers count as a failure: nothing
// passes silently. The CLI's `chainsieve vectors verify` and each protocol
// package's tests are its users.
package verify

import (
	"fmt"

	"github.com/chainsieve/chainsieve/testvectors"
)

// Status is the outcome of one vector.
type Status int

// The outcomes. Only Pass counts as passed.
const (
	Pass Status = iota
	Fail
	Unchecked
)

func (s Status) String() string {
	switch s {
	case Pass:
		return "pass"
	case Fail:
		return "fail"
	case Unchecked:
		return "unchecked"
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// Result is the outcome of one vector: a row, case or block of the file.
type Result struct {
	Name   string // the vector, as the file names or numbers it
	Status Status
	Detail string // what failed, or what was checked
}

// Report is the outcome of one file.
type Report struct {
	Format  testvectors.Format
	Results []Result
}

// Passed and Failed count the results; Failed includes Unchecked.
func (r Report) Passed() int { return r.count(func(s Status) bool { return s == Pass }) }

// Failed counts every result that did not pass.
func (r Report) Failed() int { return r.count(func(s Status) bool { return s != Pass }) }

func (r Report) count(f func(Status) bool) int {
	n := 0
	for _, res := range r.Results {
		if f(res.Status) {
			n++
		}
	}
	return n
}

// File detects the format of data and checks every vector in it. It returns
// an error only when the file cannot be recognised or decoded; failing vectors
// are results, not errors.
func File(data []byte) (Report, error) {
	format, err := testvectors.Detect(data)
	if err != nil {
		return Report{}, err
	}
	check, ok := checkers[format]
	if !ok {
		return Report{Format: format}, fmt.Errorf("verify: no checker for format %q", format)
	}
	results, err := check(data)
	return Report{Format: format, Results: results}, err
}

// checkers maps each format to its checker; each protocol's file adds its own.
var checkers = map[testvectors.Format]func([]byte) ([]Result, error){
	testvectors.Murmur3:          checkMurmur3,
	testvectors.BIP37Filter:      checkBIP37Filter,
	testvectors.BIP37Match:       checkBIP37Match,
	testvectors.BIP37MerkleBlock: checkBIP37MerkleBlock,
	testvectors.BIP158Table:      checkBIP158Table,
	testvectors.BIP158Blocks:     checkBIP158Blocks,
	testvectors.GCSRaw:           checkGCSRaw,
	testvectors.GCSMatchAny:      checkGCSMatchAny,
	testvectors.GCSDecode:        checkGCSDecode,
	testvectors.EthBlocks:        checkEthBlocks,
	testvectors.EthBloom9:        checkEthBloom9,
	testvectors.Descriptor:       checkDescriptors,
}

// result turns a check's error into a Result.
func result(name string, err error, detail string) Result {
	if err != nil {
		return Result{Name: name, Status: Fail, Detail: err.Error()}
	}
	return Result{Name: name, Status: Pass, Detail: detail}
}
