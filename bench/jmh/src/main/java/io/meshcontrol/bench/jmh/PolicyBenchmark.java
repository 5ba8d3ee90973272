package io.meshcontrol.bench.jmh;

import io.meshcontrol.core.policy.CompiledPolicy;
import io.meshcontrol.core.policy.Policy;
import io.meshcontrol.core.policy.PolicyNode;
import io.meshcontrol.core.state.NetworkSnapshot;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A policy of {@code rules} rules (groups, tags, hosts, users, autogroup:self) over {@code nodes} nodes of
 * {@code nodes / 10} users: parsing it, compiling it for the snapshot, extending the compilation of all nodes
 * but one by the last (a join), and compiling it plus one node's packet filter and peer set. An operation takes seconds, and an iteration runs at least one, so warm-up counts
 * operations here: eight of them before measuring.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
@Warmup(iterations = 8, time = 2)
@Measurement(iterations = 5, time = 2)
public class PolicyBenchmark {

    @Param("10000")
    public int nodes;

    @Param("1000")
    public int rules;

    private String text;
    private Policy policy;
    private NetworkSnapshot snapshot;
    private CompiledPolicy beforeJoin;
    private PolicyNode joining;

    @Setup(Level.Trial)
    public void setUp() {
        int users = nodes / 10;
        snapshot = SyntheticNetwork.snapshot(nodes, users);
        text = SyntheticNetwork.policy(rules, users);
        policy = PolicyCompilation.parse(text);
        beforeJoin = PolicyCompilation.compileBeforeJoin(policy, snapshot);
        joining = PolicyCompilation.joining(snapshot);
    }

    @Benchmark
    public Policy parse() {
        return PolicyCompilation.parse(text);
    }

    @Benchmark
    public Object compile() {
        return PolicyCompilation.compile(policy, snapshot);
    }

    /** One node joining: the compilation of the other nodes extended by it (what the server does per join). */
    @Benchmark
    public Object join() {
        return PolicyCompilation.join(beforeJoin, joining);
    }

    @Benchmark
    public int compileAndOneNodesFilterAndPeers() {
        return PolicyCompilation.compileForNode(policy, snapshot, 1);
    }
}
