package io.meshcontrol.core.routes;

import static io.meshcontrol.core.routes.Machines.prefixes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.meshcontrol.core.MeshException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RoutePrefixesTest {

    @Test
    void approvalsAreSortedDistinctAndEitherExitRouteBringsBoth() {
        assertEquals(prefixes("10.0.0.0/8", "192.168.1.0/24", "fd00::/64"),
                RoutePrefixes.parse(List.of("fd00::/64", "192.168.1.0/24", "10.0.0.0/8", "10.0.0.0/8")));
        assertEquals(prefixes("0.0.0.0/0", "::/0"), RoutePrefixes.withExitPair(prefixes("::/0")));
        assertEquals(prefixes("0.0.0.0/0", "10.0.0.0/8", "::/0"),
                RoutePrefixes.withExitPair(prefixes("10.0.0.0/8", "0.0.0.0/0")));
        assertEquals(List.of(), RoutePrefixes.parse(List.of()), "an empty list clears");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "10.0.0.300/24 | route \"10.0.0.300/24\" is not a CIDR prefix such as 10.0.0.0/24",
        "10.0.0.1      | route \"10.0.0.1\" is not a CIDR prefix such as 10.0.0.0/24",
        "10.0.0.0/33   | route \"10.0.0.0/33\" is not a CIDR prefix such as 10.0.0.0/24",
        "10.0.0.1/24   | route \"10.0.0.1/24\" has host bits set; the prefix is 10.0.0.0/24",
        "fd00::1/64    | route \"fd00::1/64\" has host bits set; the prefix is fd00::/64",
    })
    void badRoutesAreRefusedByName(String route, String message) {
        MeshException refused = assertThrows(MeshException.class,
                () -> RoutePrefixes.parse(List.of("10.1.0.0/16", route)));
        assertEquals(MeshException.Reason.INVALID, refused.reason());
        assertEquals(message, refused.getMessage());
    }
}
