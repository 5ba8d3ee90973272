package io.meshcontrol.core.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.TextPosition;
import io.meshcontrol.core.model.Role;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every refusal that is about one value of the policy says where that value stands in the text as written. */
class PolicyErrorPositionTest {

    private static final PolicyInventory ONE_USER = new PolicyInventory(
            List.of(new PolicyUser(1, "alice", "alice@example.com", Role.OWNER)), List.of());

    private static TextPosition refusedAt(String text) {
        PolicyException refused = assertThrows(PolicyException.class, () -> Policy.parse(text));
        return refused.position().orElseThrow(() -> new AssertionError("no position: " + refused.getMessage()));
    }

    @Test
    void anUnknownGroupIsPlacedAtItsUse() {
        String text = """
                {
                  // comments keep their lines
                  "acls": [
                    {"action": "accept", "src": ["group:nobody"], "dst": ["*:*"]},
                  ],
                }
                """;
        PolicyException refused = assertThrows(PolicyException.class, () -> Policy.parse(text));
        assertEquals("src=group not found: \"group:nobody\"", refused.getMessage());
        assertEquals(new TextPosition(4, 34), refused.position().orElseThrow());
    }

    @Test
    void anUnknownTagInADestinationWithPortsIsPlacedAtTheDestination() {
        String text = "{\n \"acls\": [\n  {\"action\": \"accept\", \"src\": [\"*\"],\n   \"dst\": [\"tag:nope:22\"]}]}";
        assertEquals(new TextPosition(4, 12), refusedAt(text));
    }

    @Test
    void anUnknownHostIsPlacedAtItsUse() {
        String text = "{\"hosts\": {\"nas\": \"192.0.2.1\"},\n\"acls\": [{\"action\": \"accept\", \"src\": [\"*\"],"
                + "\n\n  \"dst\": [\"nas:80\", \"printer:631\"]}]}";
        assertEquals(new TextPosition(4, 21), refusedAt(text));
    }

    @Test
    void anUnknownTagOwnerGroupIsPlacedAtTheOwnerNotTheTag() {
        String text = "{\"tagOwners\": {\n  \"tag:a\": [\n    \"group:gone\"]}}";
        assertEquals(new TextPosition(3, 5), refusedAt(text));
    }

    @Test
    void aBareUserNameAsTagOwnerIsPlaced() {
        String text = "{\"tagOwners\": {\"tag:a\": [\n\"alice\"]}}";
        assertEquals(new TextPosition(2, 1), refusedAt(text));
    }

    @Test
    void anUnknownFieldIsPlacedAtItsName() {
        assertEquals(new TextPosition(2, 3), refusedAt("{\n  \"acl\": []\n}"));
    }

    @Test
    void aDomainNoUserHasIsPlacedAtTheUserExpression() {
        String text = "{\"acls\": [{\"action\": \"accept\",\n \"src\": [\"user:*@elsewhere.org\"], \"dst\": [\"*:*\"]}]}";
        Policy policy = Policy.parse(text);
        PolicyException refused = assertThrows(PolicyException.class, () -> PolicyChecks.check(policy, ONE_USER));
        assertEquals(new TextPosition(2, 10), refused.position().orElseThrow());
    }

    @Test
    void aTestOfAnUnknownUserIsPlacedAtTheTestsSource() {
        String text = "{\"acls\": [{\"action\": \"accept\", \"src\": [\"bob@example.com\"], \"dst\": [\"*:*\"]}],\n"
                + "\"tests\": [\n  {\"src\": \"bob@example.com\", \"accept\": [\"100.64.0.1:22\"]}]}";
        Policy policy = Policy.parse(text);
        PolicyException refused = assertThrows(PolicyException.class, () -> PolicyChecks.check(policy, ONE_USER));
        assertTrue(refused.getMessage().startsWith("test(s) failed: "), refused.getMessage());
        assertEquals(new TextPosition(3, 11), refused.position().orElseThrow());
    }

    @Test
    void aBareWordIsASyntaxErrorInTheProductsWords() {
        PolicyException refused = assertThrows(PolicyException.class,
                () -> Policy.parse("{\n  \"acls\": [\n    {\"action\": accept}]}"));
        assertEquals(3, refused.position().orElseThrow().line());
        assertTrue(refused.getMessage().startsWith("parsing policy: line 3, column "), refused.getMessage());
        assertTrue(refused.getMessage().contains("unexpected word \"accept\""), refused.getMessage());
        assertFalse(refused.getMessage().contains("Unrecognized token"), refused.getMessage());
    }

    @Test
    void parserTermsAreRewritten() {
        assertEquals("unexpected \"}\": expected a name in double quotes", HuJson.syntaxProblem(
                "Unexpected character ('}' (code 125)): was expecting double-quote to start field name"));
        assertEquals("unexpected '\"': expected a comma (,) or the end of the list or object", HuJson.syntaxProblem(
                "Unexpected character ('\"' (code 34)): was expecting comma to separate Object entries"));
        assertTrue(HuJson.syntaxProblem("Unexpected end-of-input: expected close marker for Object (start marker at"
                + " [Source: REDACTED; line: 1, column: 1])").startsWith("the policy ends before it is complete"));
        assertEquals("unexpected ], expected } to close what is open",
                HuJson.syntaxProblem("Unexpected close marker ']': expected '}' (for Object starting at [Source: x])"));
    }

    @Test
    void noJacksonTextLeaksFromCommonMistakes() {
        for (String text : List.of("{", "{\"acls\": [}", "{\"acls\" []}", "{'acls': []}", "{\"acls\": [] \"hosts\": {}}",
                "{\"hosts\": {\"a\": \"1.2.3.4\n\"}}", "{\"x\": 01}", "[1,]x")) {
            PolicyException refused = assertThrows(PolicyException.class, () -> Policy.parse(text));
            for (String jackson : List.of("Unrecognized", "Unexpected character", "code ", "was expecting",
                    "field name", "Source:", "marker", "CTRL-CHAR")) {
                assertFalse(refused.getMessage().contains(jackson), text + " -> " + refused.getMessage());
            }
        }
    }
}
