package io.meshcontrol.core.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PerMachineTest {

    @Test
    void eachMachinesAnswerIsMadeOnFirstRequestAndKept() {
        List<Integer> made = new ArrayList<>();
        PerMachine<List<String>> answers = new PerMachine<>(3, machine -> {
            made.add(machine);
            return List.of("machine " + machine);
        });
        List<String> first = answers.get(2);
        assertEquals(List.of("machine 2"), first);
        assertSame(first, answers.get(2));
        assertEquals(List.of("machine 0"), answers.get(0));
        assertEquals(List.of(2, 0), made, "machine 1 was never asked for");
    }
}
