// Package cuckoo implements the cuckoo filter of Fan, Andersen, Kaminsky and
// Mitzenmacher ("Cuckoo Filter: Practically Better Than Bloom", CoNEXT 2014):
// a set membership filter that, unlike a Bloom filter, supports deletion.
package cuckoo
