package io.meshcontrol.core.testing.cyclefixture.three;

/** Names one only in a string constant (as a resource path would), which is no use: three stays out of the cycle. */
public final class Third {

    public static final String RESOURCE = "io/meshcontrol/core/testing/cyclefixture/one/First.txt";

    public static String resource() {
        return RESOURCE + Third.class.getName();
    }
}
