package io.meshcontrol.interop;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/** Facts about the machine the tests run on that decide whether a test can run here. */
final class ThisHost {

    private ThisHost() {
    }

    /** Whether the tests run as root: network and mount namespaces need it. */
    static boolean isRoot() throws IOException, InterruptedException {
        Process id = new ProcessBuilder("id", "-u").redirectErrorStream(true).start();
        String uid = new String(id.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip();
        return id.waitFor() == 0 && uid.equals("0");
    }
}
