package privacy

import "sync"

// memo holds values computed once in this process, by key. A report's
// costliest parts (the family table, the bits rows, the Ethereum blocks'
// sampling) depend on the seed alone, so a second report of the same seed
// (the tests build several) computes nothing again. Each value is computed
// once even when two reports ask for it at the same time, and is shared:
// callers only read it.
type memo[K comparable, V any] struct {
	mu    sync.Mutex
	cells map[K]func() (V, error)
}

// get returns the value of k, computing it the first time.
func (m *memo[K, V]) get(k K, compute func() (V, error)) (V, error) {
	m.mu.Lock()
	if m.cells == nil {
		m.cells = make(map[K]func() (V, error))
	}
	cell, ok := m.cells[k]
	if !ok {
		cell = sync.OnceValues(compute)
		m.cells[k] = cell
	}
	m.mu.Unlock()
	return cell()
}

// forget drops every value, so that the next get computes again.
func (m *memo[K, V]) forget() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.cells = nil
}
