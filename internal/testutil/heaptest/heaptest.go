// Package heaptest measures what a value keeps reachable on the heap, for
// tests that hold a long-lived structure to a size.
package heaptest

import "runtime"

// Held is how much of the heap stays reachable while what build made is
// kept, in MB.
func Held(build func() any) float64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	kept := build()
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(kept)
	return float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / (1 << 20)
}
