package privacy

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// Finding is one of the key findings that open the report: a few
// sentences for a reader who reads nothing else. Every number in Text is
// the value of a quantity Quantities names, as the tables show it, or a
// count of the report's own rows; none is typed in.
type Finding struct {
	Scheme     string   `json:"scheme"`
	Text       string   `json:"text"`
	Quantities []string `json:"quantities"` // IDs of the quantities whose values Text states
}

// placeholder is a quantity in a finding's template: {id}, or {id|%} for
// the value as a percentage.
var placeholder = regexp.MustCompile(`\{([a-z0-9_.]+)(\|%)?\}`)

// finding fills template's placeholders with the values of the report's
// quantities. A placeholder naming no quantity is a bug in the template
// or in the order of Build's steps, and an error.
func (r *Report) finding(scheme, template string) (Finding, error) {
	f := Finding{Scheme: scheme, Quantities: []string{}}
	var missing []string
	f.Text = placeholder.ReplaceAllStringFunc(template, func(m string) string {
		sub := placeholder.FindStringSubmatch(m)
		q, ok := r.lookup(sub[1])
		if !ok {
			missing = append(missing, sub[1])
			return m
		}
		f.Quantities = append(f.Quantities, q.ID)
		if sub[2] != "" {
			return percent(float64(q.Value))
		}
		return q.display()
	})
	if len(missing) > 0 {
		return f, fmt.Errorf("privacy: key finding on %s names no quantity %s", scheme, strings.Join(missing, ", "))
	}
	return f, nil
}

// lookup returns the input or section quantity with the given ID.
func (r *Report) lookup(id string) (Quantity, bool) {
	for _, q := range r.Inputs {
		if q.ID == id {
			return q, true
		}
	}
	for _, s := range r.Sections {
		for _, q := range s.Quantities {
			if q.ID == id {
				return q, true
			}
		}
	}
	return Quantity{}, false
}

// addFindings writes the key findings from what the other steps computed;
// it runs last.
func addFindings(in *inputs, r *Report) error {
	bip37 := "A peer that holds the BIP37 filter of a wallet of {input.addresses} keys (bitcoinj's policy: {bip37.size}, " +
		"false-positive rate {bip37.fp_rate} as built) and tests {input.candidates} candidate addresses against it finds " +
		"{bip37.false_expected} false candidates."
	if _, paired := r.lookup("bip37.pair.recover_all"); paired {
		bip37 += " Testing each public key together with its hash leaves {bip37.pair.false_expected} and names the whole " +
			"wallet with probability {bip37.pair.recover_all}."
	}
	bip37 += " Intersecting the {input.filters} filters of its restarts leaves {bip37.intersection.false_expected} and names " +
		"the whole wallet with probability {bip37.intersection.recover_all}."
	templates := []struct{ scheme, text string }{
		{"BIP37", bip37},
		{"BIP157/158", "The client shows its peer only which blocks it downloads. Over a year ({bip158.scan_blocks} blocks) a wallet " +
			"of {input.addresses} scripts, each active in one block, fetches {bip158.fetched} blocks, {bip158.false_blocks} of them " +
			"false matches; an observer of those fetches cannot rule out {bip158.candidates_1} of the {input.candidates} candidate " +
			"scripts (an upper bound: real activity clusters). It receives {bandwidth.bip158_expected} per block scanned."},
		{"Ethereum header blooms", "Post-Merge header blooms have {eth.fill_postmerge|%} of their bits set: one watched value " +
			"passes {eth.fp1_postmerge|%} of blocks by chance, an address AND a topic {eth.fp2_postmerge|%}. A wallet watching " +
			"{input.addresses} values fetches the receipts of {eth.fp_wallet|%} of the blocks without one of its logs, " +
			"{eth.false_blocks} of a year's {eth.scan_blocks}. The provider learns those blocks; eth_getLogs would hand it all " +
			"{eth.getlogs_revealed} values."},
		{"Bandwidth", "Per block scanned, on the embedded real blocks (different chains and eras: compare orders of magnitude): " +
			"a BIP37 merkle block without a match is {bandwidth.bip37_nomatch}, BIP157's header, filter hash and filter " +
			"{bandwidth.bip158_filter}, an Ethereum header {bandwidth.eth_header} plus {bandwidth.eth_receipts} of receipts " +
			"for each block fetched."},
	}
	for _, t := range templates {
		f, err := r.finding(t.scheme, t.text)
		if err != nil {
			return err
		}
		r.KeyFindings = append(r.KeyFindings, f)
	}
	// A scan's mode and file name come from the user: no brace of theirs
	// may read as a placeholder.
	safe := strings.NewReplacer("{", "(", "}", ")")
	for i, st := range in.cfg.Measured {
		id := fmt.Sprintf("measured.%d.", i+1)
		f, err := r.finding("Measured scan", fmt.Sprintf("The %s scan (%s) of {%sblocks} blocks received {%sreceived_per_block} "+
			"per block: measured, not modelled.", safe.Replace(st.Mode), safe.Replace(st.File), id, id))
		if err != nil {
			return err
		}
		r.KeyFindings = append(r.KeyFindings, f)
	}
	r.KeyFindings = append(r.KeyFindings, reproductionFinding(r.Reproductions))
	return nil
}

// reproductionFinding counts the reproductions that agree with their
// published figure to the precision it was published with, and names the
// others.
func reproductionFinding(rs []Reproduction) Finding {
	agree, worstRel, worst := 0, -1.0, ""
	var off, differ []string
	for _, x := range rs {
		computed, published := float64(x.Computed), float64(x.Published)
		switch {
		case !x.Reproduced:
			differ = append(differ, x.Claim)
			continue
		case math.Abs(computed-published) <= float64(x.Precision):
			agree++
		default:
			off = append(off, fmt.Sprintf("%s: published %s, computed %s", x.Claim, x.AsWritten, exact(x.Computed)))
		}
		if rel := math.Abs(computed/published - 1); published != 0 && rel > worstRel {
			worstRel, worst = rel, x.Claim
		}
	}
	text := fmt.Sprintf("Of the %d published figures the report recomputes, %s to the precision they were published with",
		len(rs), count(agree, "agrees", "agree"))
	if worstRel >= 0 {
		text += fmt.Sprintf(" (the largest relative difference: %s, %s)", percent(worstRel), worst)
	}
	if len(off) > 0 {
		text += fmt.Sprintf("; %s in its last digit (%s)", count(len(off), "differs", "differ"), strings.Join(off, "; "))
	}
	if len(differ) > 0 {
		text += fmt.Sprintf("; %s data that differ by design (%s)", count(len(differ), "compares", "compare"), strings.Join(differ, "; "))
	}
	return Finding{Scheme: "Reproductions", Text: text + ".", Quantities: []string{}}
}

// count writes n with the verb agreeing with it.
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
