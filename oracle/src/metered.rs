//! The `touchstone` binary's global allocator: mimalloc, metered. Every block is reported to
//! the query budget of the thread that allocates or frees it
//! ([`touchstone::budget::note_alloc`]), so `--max-memory` counts what a query really holds,
//! whatever structure grows. One file, included by the binary and by the `lines` bench (which
//! measures the line path as the binary runs it); the oracle library itself has no unsafe code.

/// The metered allocator.
pub struct Metered;

// SAFETY: every call is passed unchanged to mimalloc's allocator, which upholds GlobalAlloc's
// contract; the reports touch only const-initialised thread-local cells, which neither
// allocate nor unwind.
unsafe impl std::alloc::GlobalAlloc for Metered {
    unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { mimalloc::MiMalloc.alloc(layout) };
        if !p.is_null() {
            touchstone::budget::note_alloc(layout.size());
        }
        p
    }
    unsafe fn alloc_zeroed(&self, layout: std::alloc::Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { mimalloc::MiMalloc.alloc_zeroed(layout) };
        if !p.is_null() {
            touchstone::budget::note_alloc(layout.size());
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: std::alloc::Layout) {
        // SAFETY: the caller's contract, passed on.
        unsafe { mimalloc::MiMalloc.dealloc(ptr, layout) };
        touchstone::budget::note_free(layout.size());
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: std::alloc::Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { mimalloc::MiMalloc.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            touchstone::budget::note_free(layout.size());
            touchstone::budget::note_alloc(new_size);
        }
        p
    }
}
