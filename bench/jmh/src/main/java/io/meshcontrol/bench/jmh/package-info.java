/**
 * JMH micro-benchmarks of core's hot paths: building one node's full map, compiling the policy, encoding a map,
 * sealing it, and the server's side of a ts2021 handshake ({@code bench/floors} adds the last three up).
 * Each benchmark reaches core through one small glue class ({@link MapBuilding}, {@link PolicyCompilation},
 * {@link MapEncoding}) so that a change of core's internals is adapted in one place; {@link SyntheticNetwork}
 * makes the nodes, users and policies they run on. Run them with {@code bench/jmh/run}.
 */
package io.meshcontrol.bench.jmh;
