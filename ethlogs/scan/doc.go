// Package scan answers "which logs in this block range match this
// eth_getLogs filter?" from any Ethereum JSON-RPC endpoint, and proves the
// answer: nothing forged, nothing withheld. It is the pipeline behind
// "chainsieve eth scan".
//
// [Run] works in two passes:
//
//  1. Headers. It finds the anchor ([Anchor]: the node's finalized block
//     by default, a block the caller gives, or one a beacon light client
//     proves finalized, optionally confirmed by other endpoints), then
//     fetches the headers from the end of the persistent index
//     ([ethlogs/index], one per chain and first block under
//     [Config.IndexDir]) up to the anchor or the end of the range, in
//     batched JSON-RPC requests (the header's RLP with debug_getRawHeader
//     where the node serves it, its hash the Keccak-256 of the bytes
//     received; else eth_getHeaderByNumber, else eth_getBlockByNumber(n,
//     false), whose fields must hash to the hash the node claims) with
//     several requests in flight, checks that each header links to its
//     parent, appends it to the index, and
//     finally checks that the block at the anchor's height is the anchor
//     (and the block at the range's end, where it is after the anchor, the
//     node's). Every header up to the anchor is then as trusted as the
//     anchor; those after it form a chain linked forward to it, counted in
//     [Stats.Unfinalized].
//  2. Receipts. The index gives the blocks whose logsBloom passes the
//     compiled query ([ethlogs.Matcher]); for those only, it fetches the
//     receipts (their consensus encodings with debug_getRawReceipts where
//     the node serves it and transaction hashes are proven; else
//     eth_getBlockReceipts; else one eth_getTransactionReceipt per
//     transaction), verifies them with [ethlogs.VerifyReceipts] against
//     the trusted header, fetches the transactions of the blocks with
//     matches (debug_getRawBlock, else eth_getBlockByHash) and verifies
//     them with [ethlogs.VerifyTransactions], and hands the logs that
//     match exactly, in eth_getLogs order and JSON shape, to
//     [Config.Emit]. The raw answers spare the node its JSON encoding and
//     the client its decoding; any error object to one of them (providers
//     refuse the debug namespace in many ways) turns that kind of request
//     to JSON for the rest of the run.
//
// What is proven: the receipts root commits to every receipt's status,
// gas, bloom and logs (address, topics, data), and the header bloom is
// checked to be the union of the logs' blooms, so a block skipped on its
// bloom has no matching log. Block number, hash and time, transaction and
// log indexes are set from the verified header and the receipts' order;
// transactionHash from the transactions proven by transactionsRoot
// (unless [Config.TrustTxHashes]). What is not: the anchor itself, beyond
// what its source vouches for (docs/eth-scan.md has a trust table).
//
// Modes ([Mode]): [Full] (the default), [BloomUntrusted] for chains whose
// header blooms have been wrong (every block's receipts are fetched and
// checked against the receipts root only), and [None] (no anchor or
// receipt checks: an escape hatch, never a default).
//
// Endpoints: [NewClient] takes an http(s):// or ws(s):// URL or the path
// of a node's IPC socket ([CheckEndpoint] says which strings it takes),
// and sends calls in JSON-RPC batches over each; over WebSocket and IPC
// each request in flight has a connection of its own, and
// [Client.SubscribeNewHeads] streams the node's new heads.
//
// Providers: [Client] retries timeouts, lost connections, HTTP 429 (after
// Retry-After) and 5xx with backoff, telling [Client.OnRetry] of each
// retry; an endpoint that refuses the connection or does not resolve
// before it ever answered fails at once ([UnreachableError]). A request
// refused as too large (error -32005, HTTP 413, a message about a limit,
// a range or a batch size) is split in halves and the batch size shrinks,
// then grows back.
//
// Hostile nodes: every answer streams through a reader that holds no
// whitespace, nests at most 64 levels, takes no more answers than calls,
// keeps each result compact under its call's limit ([Call.Limit]: 1 MiB
// for a header, 4 MiB for a block without its transactions, else
// [DefaultBudget]) and all the answers a job of a scan holds under the
// client's budget, shared by the jobs in flight; a node's error message
// or HTTP body is read in part and reaches an error only clipped and
// escaped ([untrusted.Text]). An answer over its limit fails with a
// [*TooLargeError] naming the call. With the default settings a scan's
// peak RSS stays under 256 MiB whatever the node sends
// (docs/eth-scan.md, "Provider limits and faults").
//
// Stops: a scan reports a [Checkpoint] ([Config.Checkpoint]) before its
// first log, after each batch of logs and when complete. It pins the
// question (the chain, the anchor by hash, the range by number) and says
// how far the logs go; a caller that makes the emitted logs durable and
// then persists it can resume from the last one persisted
// ([Config.Resume]), whatever stopped the scan, with no log repeated or
// lost ("chainsieve eth scan --resume" does so for a file).
//
// Follow: [Follow] scans the range, then follows the node's new heads
// (eth_subscribe("newHeads") over WebSocket and IPC, the latest block every
// [FollowOptions.Poll] over HTTP). Each head's blocks are fetched by
// number, checked to hash to what the node claims and to link by parent
// hash to the last block emitted, and their logs verified as the range's
// and emitted once they have [FollowOptions.Confirmations] blocks on top.
// A reorganisation (the node's block at the last emitted height is not
// the one emitted) is traced back through the window of the last 128
// emitted blocks ([DefaultWindow]) to the newest block both chains hold;
// the logs of the emitted blocks after it are fetched again, verified,
// and emitted with Removed set, oldest first (go-ethereum's
// eth_subscribe("logs") order), before the new branch's. Deeper than the
// window is [ErrDeepReorg], naming the block. What the follow does not
// prove: that the node's branch is the one the network will keep; new
// blocks are as trusted as the node's word on which chain is best, linked
// to the anchor by parent hashes. A follow's checkpoints carry its window
// ([FollowState]), so a stopped follow resumes with nothing repeated or
// lost, removed logs included.
//
// Several scans, in one process or many, may share [Config.IndexDir]: a
// scan writes an index only in its header phase, reads a snapshot in its
// receipts phase, reads beside another writer when its blocks are all
// indexed, and otherwise waits for the writer ([Config.Waiting]).
package scan
