package io.meshcontrol.bench.jmh;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * CPU time per operation ({@code -prof io.meshcontrol.bench.jmh.CpuTimeProfiler}), in µs, as two secondary results:
 * {@code ·cpu}, the benchmark threads' own (JMH's workers), and {@code ·cpu.process}, the whole benchmark JVM's (the
 * garbage collector's and the JIT's threads too). JMH measures wall time, which on a machine shared with other work
 * is the share of a core a benchmark got; the workers' CPU time is what the operation itself costs, which is what
 * {@code bench/floors} adds up.
 */
public final class CpuTimeProfiler implements InternalProfiler {

    public static final String THREADS = "·cpu";
    public static final String PROCESS = "·cpu.process";
    /** JMH 1.37 names its worker threads {@code <benchmark>-jmh-worker-<n>}. */
    private static final String WORKER = "-jmh-worker-";

    private final com.sun.management.OperatingSystemMXBean system =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private Map<Long, Long> workersBefore = Map.of();
    private long processBefore;

    @Override
    public String getDescription() {
        return "CPU time per operation: the benchmark threads' and the whole JVM's";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        workersBefore = workerCpu();
        processBefore = system.getProcessCpuTime();
    }

    @Override
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
            IterationResult result) {
        long process = system.getProcessCpuTime() - processBefore;
        long workers = 0;
        // A worker started during the iteration (the first one's) counts from 0; one gone since is lost, but JMH
        // keeps its workers for the whole run of a benchmark.
        for (Map.Entry<Long, Long> now : workerCpu().entrySet()) {
            workers += now.getValue() - workersBefore.getOrDefault(now.getKey(), 0L);
        }
        // All operations, those of the synchronisation before and after the measured part included: they used the CPU.
        double ops = Math.max(1, result.getMetadata().getAllOps());
        return List.of(new ScalarResult(THREADS, workers / 1_000.0 / ops, "us/op", AggregationPolicy.AVG),
                new ScalarResult(PROCESS, process / 1_000.0 / ops, "us/op", AggregationPolicy.AVG));
    }

    private Map<Long, Long> workerCpu() {
        Map<Long, Long> cpu = new HashMap<>();
        for (ThreadInfo thread : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (thread != null && thread.getThreadName().contains(WORKER)) {
                long time = threads.getThreadCpuTime(thread.getThreadId());
                if (time >= 0) {
                    cpu.put(thread.getThreadId(), time);
                }
            }
        }
        return cpu;
    }
}
