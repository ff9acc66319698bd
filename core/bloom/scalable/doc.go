// Package scalable implements the scalable Bloom filter of Almeida, Baquero,
// Preguiça and Hutchison ("Scalable Bloom Filters", Information Processing
// Letters 101, 2007): a Bloom filter that grows with the set it holds while
// keeping a chosen bound on its false-positive rate.
//
// Use it instead of core/bloom's classic [bloom.Filter] when the number of
// elements is not known in advance, for example a wallet's watch list or
// the set of transactions seen on a peer connection. When n is known, the
// classic filter is smaller and faster: at P = 1 % and n0 = 1,000, growing
// to 100,000 elements costs about twice the bits per element of a classic
// filter sized for 100,000, and a miss probes every stage.
//
// # How it grows
//
// A [Filter] is a chain of classic Bloom filters, the stages. Stage i (from
// 0) holds n_i = n0·s^i elements at error p_i = P·(1−r)·r^i, with n0 =
// [Params.Capacity], P = [Params.FalsePositiveRate], growth s and
// tightening ratio r. [Filter.Add] inserts into the newest stage and creates
// the next one when the newest holds its capacity; [Filter.Test] asks every
// stage. A non-member is a false positive when any stage answers true, so
// the filter's rate is 1 − Π(1 − p_i) ≤ Σ p_i = P·(1−r)·Σ r^i < P, however
// many stages it grows. Each stage is sized as core/bloom's New sizes a
// filter: m_i = ⌈−n_i·ln p_i / ln²2⌉ bits and k_i = round(m_i/n_i·ln 2)
// hashes. The bits per element grow slowly with the stage (p_i shrinks by r,
// so m_i/n_i grows by ln(1/r)/ln²2 per stage), which is why r near 1 is
// recommended; the paper suggests 0.8 to 0.9 with s = 2 for slow growth and
// s = 4 for fast growth.
//
// Every stage derives its k_i positions from the one 128-bit MurmurHash3
// ([bloom.Hash]) of the element, computed once per Add or Test, by
// [bloom.Probe]'s triple hashing, so each stage sets the bits a
// [bloom.Filter] of its shape would. Plain double hashing would not do: the
// first stages are small and tight, and there it measured twenty times its
// theoretical rate (m = 32,212, k = 22: 3.9e-6 against 1.9e-7 over 2·10^7
// non-members), which is how this package found the weakness that made
// core/bloom change. Stages are classic (one array of m_i bits), not the
// partitioned slices of the paper; the measured rates match the classic
// formula.
//
// # Caveats
//
// Add inserts nothing when the element already tests positive, so
// duplicates do not consume capacity; a false positive is not inserted
// either, which is harmless without deletion since it tests positive
// already. The filter stops growing at 2^37 bits in all (core/bloom's size
// limit) or when a stage's error would need more than [bloom.MaxHashes]
// hashes: [Filter.Insert] then returns [ErrFull], while [Filter.Add] keeps
// inserting into the newest stage, giving up the bound rather than causing
// false negatives. There is no deletion and no union.
//
// # Encoding
//
// [Filter.MarshalBinary] writes "CSSB", version 1, the parameters (two
// IEEE-754 float64 in little-endian byte order for P and r), each stage's
// added count and its bits in core/bloom's little-endian bit layout. Stage
// sizes are not stored but derived from the parameters, so the hashing and
// the sizing rules above are part of version 1.
//
// A Filter is not safe for concurrent mutation; concurrent Test calls are
// fine.
package scalable
