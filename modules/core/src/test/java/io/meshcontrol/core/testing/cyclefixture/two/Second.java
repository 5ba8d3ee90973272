package io.meshcontrol.core.testing.cyclefixture.two;

import java.util.List;

/** The other half: two names one only in a generic signature, which counts as a use. */
public final class Second {

    public List<io.meshcontrol.core.testing.cyclefixture.one.First> firsts() {
        return List.of();
    }
}
