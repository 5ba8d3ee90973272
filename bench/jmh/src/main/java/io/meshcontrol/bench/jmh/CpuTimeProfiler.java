package io.meshcontrol.bench.jmh;

import java.lang.management.ManagementFactory;
import java.util.Collection;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * The benchmark JVM's CPU time per operation ({@code -prof io.meshcontrol.bench.jmh.CpuTimeProfiler}), as the
 * secondary result {@code ·cpu}, in µs per operation. JMH measures wall time, which on a machine shared with other
 * work is the share of a core a benchmark got; the CPU time is what an operation costs, which is what
 * {@code bench/floors} adds up. It is the whole process's (the benchmark's thread, and the garbage collector and JIT
 * as far as they run during the iteration), so with one benchmark thread it is at least the operation's own cost.
 */
public final class CpuTimeProfiler implements InternalProfiler {

    public static final String LABEL = "·cpu";

    private final com.sun.management.OperatingSystemMXBean system =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private long before;

    @Override
    public String getDescription() {
        return "the benchmark JVM's CPU time per operation";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        before = system.getProcessCpuTime();
    }

    @Override
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
            IterationResult result) {
        long cpu = system.getProcessCpuTime() - before;
        // All operations, those of the synchronisation before and after the measured part included: they used the CPU.
        long ops = Math.max(1, result.getMetadata().getAllOps());
        return List.of(new ScalarResult(LABEL, cpu / 1_000.0 / ops, "us/op", AggregationPolicy.AVG));
    }
}
