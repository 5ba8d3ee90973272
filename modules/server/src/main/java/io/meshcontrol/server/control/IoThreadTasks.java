package io.meshcontrol.server.control;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import org.xnio.XnioIoThread;

/**
 * Tasks for one XNIO I/O thread from other threads, with one hand-over for every batch that arrives before the thread
 * runs it. Get an I/O thread's own with {@link #current()}, on that thread.
 *
 * <p>Why: {@link XnioIoThread#execute} takes the thread's task lock and wakes its selector under the JDK's wake-up
 * lock. When a virtual thread finds either lock taken, it leaves its carrier and queues for the lock, and the I/O
 * thread, arriving next, waits behind it until a carrier is free to run it, which under load is seconds. At N =
 * 10,000, with every map stream handing its writes over this way, the I/O threads waited 81 s in total for those two
 * locks (up to 4.9 s at once; JFR's monitor events), serving none of their connections meanwhile. Here a thread adds
 * its task to a lock-free queue and only the first of a batch calls {@code execute}.
 */
final class IoThreadTasks implements Executor {

    private static final System.Logger LOG = System.getLogger(IoThreadTasks.class.getName());

    private static final ThreadLocal<IoThreadTasks> OWN = ThreadLocal.withInitial(() -> {
        if (!(Thread.currentThread() instanceof XnioIoThread thread)) {
            throw new IllegalStateException("not an XNIO I/O thread: " + Thread.currentThread().getName());
        }
        return new IoThreadTasks(thread);
    });

    private final Executor thread;
    private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean handedOver = new AtomicBoolean();

    IoThreadTasks(Executor thread) {
        this.thread = thread;
    }

    /** The tasks of the I/O thread this is called on. */
    static IoThreadTasks current() {
        return OWN.get();
    }

    /** Runs {@code task} on the I/O thread, after the tasks handed over before it. */
    @Override
    public void execute(Runnable task) {
        tasks.add(task);
        if (handedOver.compareAndSet(false, true)) {
            try {
                thread.execute(this::runQueued);
            } catch (RuntimeException e) {
                handedOver.set(false);
                tasks.remove(task);
                throw e;
            }
        }
    }

    /**
     * On the I/O thread: runs what is queued. The flag goes down first, so that a task added while these run is
     * either run here or handed over again, never left behind.
     */
    private void runQueued() {
        handedOver.set(false);
        for (Runnable task = tasks.poll(); task != null; task = tasks.poll()) {
            try {
                task.run();
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "a task on the I/O thread failed", e);
            }
        }
    }
}
