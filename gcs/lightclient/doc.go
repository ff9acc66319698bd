// Package lightclient is a long-lived Bitcoin light client for one
// watch-only wallet: it keeps several peers, verifies the header chain into
// a store on disk, scans from the wallet's birthday with BIP157/158
// compact filters (package gcs/cfscan) or BIP37 Bloom filters (package
// bip37/bloomscan), then follows the tip, and reports on one stream the
// blocks that connect and disconnect, with the wallet's transactions in
// them. It keeps the wallet's ledger (package gcs/spv/wallet: coins and
// balance across reorganisations, descriptors with a gap limit) and
// broadcasts the wallet's transactions through its peers.
//
// Use: [New] with a [Config] (network, peers or none for DNS seeds, store
// directory, birthday, descriptors or addresses, Follow), [Client.Start],
// then read [Client.Events] until it closes ([Client.Resumed] says where
// a kept wallet was taken up); [Client.Balance],
// [Client.Unspent], [Client.Broadcast], [Client.AddDescriptors] and
// [Client.Rescan] work while it runs; [Client.Stop] ends it.
//
// Peers. With no peers given, the network's DNS seeds are asked
// (btcd's connmgr.SeedFromDNS; seeds that filter by service bits are
// asked for NETWORK|WITNESS|COMPACT_FILTERS, x49). A peer without the
// mode's service bit is not used. The client keeps TargetPeers connected
// and tops them up as they go.
//
// What several peers prove (BIP157). Filter headers are stored only once
// Quorum peers (default 2) serve identical ones. When they differ, the
// client asks each party for its filter of the first block they differ
// on and one of them for the block (cfscan.Judge), and bans, with the
// reason, every peer whose filter does not hash to its own claim, lacks
// an output script of the block, or holds more items than the block can
// account for. A claim that differs only in the scripts the block's
// inputs spend cannot be decided from the block (they are not all
// derivable), so both sides are disconnected, neither banned, and the
// client goes on with other peers, or stops with an error naming the
// conflict if there are none. A peer that times out is dropped and its
// score lowered, never banned. Bans are kept by IP address, or by address
// and port on the loopback interface, for BanDuration, across restarts
// (the peers file). What a quorum of
// colluding peers serves cannot be told from the truth without a
// checkpoint; BIP37 commits to nothing a second peer could confirm, so
// BIP37 mode uses one peer at a time.
//
// The stream. Each verified block connects once, in ascending height,
// with the wallet's transactions in it (a Connected [Event]). In a
// reorganisation the blocks that left the chain disconnect first, from
// the top down, with the transactions reported in them (Disconnected),
// then the new branch connects; a competing branch is accumulated across
// headers messages (spv.Chain keeps side branches) and wins once it
// carries more work. With Confirmations N a block is reported once N
// blocks are on top of it, so a reorganisation of N blocks or fewer is
// never seen. Nothing of a scan step (up to 1,000 blocks) is reported before all
// of it verified, so a step that fails on a peer runs again with others
// and nothing is reported twice. The stream is bounded (Config.Events);
// while it is full the client waits.
//
// The wallet. Scripts that a payment adds to the watch list (the gap
// limit) are rescanned from the block that added them: a wallet that
// hands out addresses in order cannot have been paid at them before. To
// look further back, [Client.Rescan] or [Client.AddDescriptors] take a
// height. Transactions so found in blocks already reported come as
// Connected events with Rescan set.
//
// What it keeps (Config.Store; nothing without one). The store directory
// (package gcs/spv/store, locked by one process at a time) holds the
// header chain and the filter headers, and beside them, each file
// checksummed, its size bounded before it is read, and replaced
// atomically (store.Store.PutFile):
//
//   - wallet-NAME, one per wallet (NAME is Config.Wallet, or derived from
//     the descriptors, addresses, coins, birthday and gap limit): the
//     descriptors and addresses with the highest index each has paid,
//     the ledger (every wallet transaction with its block, and the tip),
//     the last spv.DefaultWindow blocks reported with the wallet
//     transactions reported in them, the blocks scanned but not reported
//     yet (Confirmations), the coins given, a rescan still owed, and the
//     BIP37 filter's tweak and capacity;
//   - peers: the bans in force (who, why, since and until when) and the
//     addresses the DNS seeds gave, with their scores.
//
// A restart takes the wallet up where its file ends: it syncs the headers
// after the store's tip, then scans only the blocks after the last one
// the file holds (no filter, filter header or block before it is fetched
// again). If that block is no longer on the best chain (a reorganisation
// while the client was stopped), the blocks of the file that left it are
// reported as Disconnected events, from the top down, with the
// transactions the file says were reported in them, and the ledger
// disconnects them, before the new branch connects: the stream a client
// that had kept running would have given. Descriptors, addresses and
// coins that Config names and the file lacks are added and scanned for
// from the birthday; a file of another birthday or gap limit, one past
// Config.To, or one that does not decode is an error at Start that names
// the file and the way out.
//
// Delivery and the crash window. Events reach the consumer one at a time
// (Events is unbuffered; up to Config.Events wait in the client). The
// client keeps the wallet's state after each scan step, before the last
// block of a step and every 256 blocks within one, after each new block
// and each reorganisation; it writes a state once the consumer has taken
// the event after the last one the state covers, which for a consumer
// that reads the stream in one loop means that event was handled. After a
// crash (kill -9, power loss) the file therefore holds a state whose
// events were all handled, and the restart reports again, in the same
// order and with the same transactions, the events that came after it:
// at most 256 blocks and the events waiting in the client, one block at
// a step's end, usually none in follow mode. A consumer that must see
// each event exactly once remembers the last event it handled (kind,
// height, hash) and skips the restart's events up to that one: the
// window repeats them exactly. Stop drops the events not taken yet; no
// kept state covers them, so the next run reports them.
//
// Safe for concurrent use: every method of [Client].
package lightclient
