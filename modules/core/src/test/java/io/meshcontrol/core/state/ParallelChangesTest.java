package io.meshcontrol.core.state;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.meshcontrol.core.model.DnsSettings;
import io.meshcontrol.core.testing.TestNetwork;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many callers changing one setting at once, as OpenTofu applies resources in parallel: every change that was
 * acknowledged is there afterwards, because each one reads, changes and saves under the one writer ({@link Writer}).
 */
class ParallelChangesTest {

    private static final int WRITERS = 24;

    @TempDir
    Path folder;
    TestNetwork net;

    @BeforeEach
    void setUp() {
        net = new TestNetwork(folder);
    }

    /** Runs {@code WRITERS} changes released together, each on its own thread, and waits for all of them. */
    private static void atOnce(IntFunction<Runnable> change) throws Exception {
        CountDownLatch start = new CountDownLatch(1);
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> done = new ArrayList<>();
            for (int i = 0; i < WRITERS; i++) {
                Runnable one = change.apply(i);
                done.add(threads.submit(() -> {
                    start.await();
                    one.run();
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> acknowledged : done) {
                acknowledged.get();
            }
        }
    }

    private static String domain(int i) {
        return "d" + i + ".example";
    }

    @Test
    void parallelDnsChangesOfDifferentPartsAllStay() throws Exception {
        Dns dns = net.network.dns();
        List<DnsSettings> heard = new ArrayList<>();
        dns.onChange(heard::add);
        atOnce(i -> () -> dns.update(net.admin, current -> switch (i % 3) {
            case 0 -> {
                Map<String, List<DnsSettings.Resolver>> split = new LinkedHashMap<>(current.splitDns());
                split.put(domain(i), List.of(new DnsSettings.Resolver("10.0.0." + (i + 1), false)));
                yield current.withSplitDns(split);
            }
            case 1 -> {
                List<String> paths = new ArrayList<>(current.searchPaths());
                paths.add(domain(i));
                yield current.withSearchPaths(paths);
            }
            default -> {
                List<DnsSettings.Resolver> nameservers = new ArrayList<>(current.nameservers());
                nameservers.add(new DnsSettings.Resolver("192.0.2." + (i + 1), false));
                yield current.withNameservers(nameservers);
            }
        }));

        DnsSettings after = dns.current();
        for (int i = 0; i < WRITERS; i++) {
            String what = "change " + i;
            switch (i % 3) {
                case 0 -> assertEquals(List.of(new DnsSettings.Resolver("10.0.0." + (i + 1), false)),
                        after.splitDns().get(domain(i)), what);
                case 1 -> assertEquals(true, after.searchPaths().contains(domain(i)), what);
                default -> assertEquals(true, after.nameservers().contains(
                        new DnsSettings.Resolver("192.0.2." + (i + 1), false)), what);
            }
        }
        assertEquals(WRITERS, heard.size(), "every change put in force");
        assertEquals(after, heard.getLast(), "in the order they were saved");
        assertEquals(after, net.reopened(folder).dns().current(), "as saved");
        assertEquals(WRITERS, auditEntries("dns.update"));
    }

    private int auditEntries(String action) {
        return net.network.auditLog().recent(action, 1000).size();
    }
}
