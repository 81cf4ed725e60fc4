import Glibc

/// A lock with a condition to wait on (a pthread mutex and condition variable): for a thread of its own that
/// sleeps until work arrives, as the seal worker does. What Foundation's `NSCondition` gave, without Foundation.
package final class Condition: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let variable = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    package init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(variable, nil)
    }

    deinit {
        pthread_cond_destroy(variable)
        pthread_mutex_destroy(mutex)
        variable.deallocate()
        mutex.deallocate()
    }

    package func lock() { pthread_mutex_lock(mutex) }
    package func unlock() { pthread_mutex_unlock(mutex) }
    /// Wakes one waiting thread; call with the lock held.
    package func signal() { pthread_cond_signal(variable) }
    /// Unlocks, sleeps until `signal`, and locks again; call with the lock held, in a loop over the awaited state.
    package func wait() { pthread_cond_wait(variable, mutex) }
}
