package io.meshcontrol.core.testing.cyclefixture.one;

import io.meshcontrol.core.testing.cyclefixture.two.Second;

/** Half of a package cycle that {@code PackageCyclesTest} must find: one uses two. */
public final class First {

    public Second second() {
        return null;
    }
}
