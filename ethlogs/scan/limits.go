package scan

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Limits on what one answer may hold, from mainnet facts (see
// docs/eth-scan.md, "Provider limits and faults"). They bound the compact
// result kept for each call; whitespace is skipped as it streams past and
// never held.
const (
	// DefaultBudget is the most bytes of results one request, or one job
	// of a scan, may bring: with 4 jobs in flight a scan holds at most
	// 64 MiB of answers (its peak RSS stays under 256 MiB: measured with
	// hostile nodes in TestHostileNode). geth caps a batch's answer at
	// 25 MB (--rpc.batch-response-max-size); a larger batch is split.
	// It is also the limit of a call whose answer grows with a block's
	// gas: a block's receipts (a few MB on mainnet; a block stuffed with
	// empty logs, 375 gas and about 360 bytes of JSON each, would be about
	// 55 MB at a 60 M gas limit, and is refused with an error naming it),
	// one receipt, or a block with its transactions (since Prague,
	// EIP-7623, calldata costs at least 10 gas a byte: at most 12 MB of
	// hex at 60 M gas). Client.Budget raises it.
	DefaultBudget = 16 << 20
	// headerLimit bounds a header, eth_getHeaderByNumber's answer: about
	// 1.5 KB of JSON on mainnet, whose extraData is at most 32 bytes; a
	// few KB on chains that list validators in extraData.
	headerLimit = 1 << 20
	// blockLimit bounds a block without its transactions: a header plus
	// 67 bytes a transaction hash, under 200 KB at 60 M gas where each
	// transaction costs at least 21,000; room for 60,000 hashes.
	blockLimit = 4 << 20
	// messageLimit is how much of an error object's message is decoded:
	// far more than the characters untrusted.Text shows.
	messageLimit = 1 << 10
)

// limit returns the most bytes c's result may have under budget: c.Limit
// if set, else its method's.
func (c *Call) limit(budget int) int {
	l := c.Limit
	if l <= 0 {
		l = budget
		switch c.Method {
		case "eth_getHeaderByNumber", "eth_getHeaderByHash", rawHeaderMethod:
			l = headerLimit
		case "eth_getBlockByNumber", "eth_getBlockByHash":
			if len(c.Params) < 2 || c.Params[1] != true {
				l = blockLimit
			}
		}
	}
	return min(l, budget)
}

// TooLargeError is an answer refused for its size: one call's result over
// that call's limit, or a batch's results over the budget of a request
// (which a scan splits, as when a provider refuses a batch as too large).
type TooLargeError struct {
	Request string // the call, or the first and last of a batch
	Call    string // the call whose result is too large; "" if not known (its id came after it)
	Limit   int    // bytes
	Calls   int    // calls in the request
	Budget  bool   // the budget of the request (or of a scan's job) was exceeded, not one call's limit
}

func (e *TooLargeError) Error() string {
	switch {
	case e.Budget:
		return fmt.Sprintf("the answers to %s are larger than their budget of %s", e.Request, size(e.Limit))
	case e.Call != "":
		return fmt.Sprintf("the answer to %s is larger than its limit of %s", e.Call, size(e.Limit))
	}
	return fmt.Sprintf("an answer in %s is larger than %s, the largest limit of its calls", e.Request, size(e.Limit))
}

// size writes a byte count in the largest binary unit that divides it.
func size(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// String names the call as a request: method(params), strings unquoted.
func (c *Call) String() string {
	args := make([]string, len(c.Params))
	for i, p := range c.Params {
		b, err := json.Marshal(p)
		if err != nil {
			b = []byte("?")
		}
		s := strings.Trim(string(b), `"`)
		if len(s) > 80 {
			s = s[:77] + "..."
		}
		args[i] = s
	}
	return c.Method + "(" + strings.Join(args, ", ") + ")"
}

// describe names a request: its call, or the first and last of a batch.
func describe(calls []Call) string {
	switch len(calls) {
	case 0:
		return "an empty batch"
	case 1:
		return calls[0].String()
	}
	return fmt.Sprintf("a batch of %d calls, %s to %s", len(calls), calls[0].String(), calls[len(calls)-1].String())
}
