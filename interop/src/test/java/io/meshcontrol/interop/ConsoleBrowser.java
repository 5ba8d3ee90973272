package io.meshcontrol.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TimeoutException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console in a real browser: Debian's {@code chromium}, headless, driven through {@code chromium-driver}
 * (installed by {@code scripts/install-test-packages.sh}; without them the tests are skipped and say why). Saves
 * screenshots under {@code target/console-screenshots/} and checks each page with axe-core, failing on serious or
 * critical violations.
 */
final class ConsoleBrowser implements AutoCloseable {

    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path DRIVER = Path.of("/usr/bin/chromedriver");
    static final Path SCREENSHOTS = Path.of("target", "console-screenshots");
    private static final Duration WAIT = Duration.ofSeconds(30);

    private final ChromeDriver driver;
    private final WebDriverWait wait;
    private final URI console;

    private ConsoleBrowser(ChromeDriver driver, URI console) {
        this.driver = driver;
        this.wait = new WebDriverWait(driver, WAIT);
        this.console = console;
    }

    /** A browser at the console of the server at {@code serverUrl}; skips the test without chromium. */
    static ConsoleBrowser open(URI serverUrl) {
        assumeTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(DRIVER),
                "the console browser tests need Debian's chromium and chromium-driver "
                        + "(scripts/install-test-packages.sh installs them)");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1280,900", "--lang=en-US");
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(DRIVER.toFile())
                .usingAnyFreePort().build();
        ConsoleBrowser browser = new ConsoleBrowser(new ChromeDriver(service, options),
                serverUrl.resolve("/admin"));
        browser.driver.get(browser.console.toString());
        return browser;
    }

    /** Signs in with an API key at the sign-in page and waits for the console's navigation. */
    void signIn(String apiKey) {
        type(By.id("api-key"), apiKey);
        click(By.xpath("//button[normalize-space()='Sign in']"));
        waitFor(By.cssSelector("nav[aria-label='Console']"));
    }

    void signOut() {
        click(By.xpath("//button[normalize-space()='Sign out']"));
        waitFor(By.id("api-key"));
    }

    /** Goes to a page of the console ({@code machines}, {@code policy}, ...) by its address. */
    void go(String page) {
        driver.get(console + "/#/" + page);
        waitFor(By.tagName("h1"));
    }

    /** Opens an address as a link from elsewhere does (a machine's login link), following its redirects. */
    void visit(URI address) {
        driver.get(address.toString());
        waitFor(By.tagName("h1"));
    }

    /** Loads the page again from the server, as the browser's reload button does. */
    void reload() {
        driver.navigate().refresh();
        waitFor(By.tagName("h1"));
    }

    /** The current value of a form field. */
    String value(By locator) {
        return waitFor(locator).getDomProperty("value");
    }

    /** Waits until the form field's current value is {@code value}. */
    void waitForValue(By locator, String value) {
        wait.until(d -> value.equals(d.findElement(locator).getDomProperty("value")));
    }

    /** Waits until nothing matches {@code locator} any more. */
    void waitGone(By locator) {
        wait.until(ExpectedConditions.invisibilityOfElementLocated(locator));
    }

    /** Scrolls the page so that the element is at the top of the window (for a screenshot of that part). */
    void scrollTo(By locator) {
        driver.executeScript("arguments[0].scrollIntoView({block: 'start'})", waitFor(locator));
    }

    /** Submits the form the field is in (a page of another site, whose buttons this test does not know). */
    void submit(By field) {
        waitFor(field).submit();
    }

    String url() {
        return driver.getCurrentUrl();
    }

    WebElement waitFor(By locator) {
        return wait.until(ExpectedConditions.visibilityOfElementLocated(locator));
    }

    void waitForText(String text) {
        try {
            wait.until(d -> d.findElement(By.tagName("body")).getText().contains(text));
        } catch (TimeoutException e) {
            screenshot("failed-" + text.replaceAll("[^A-Za-z0-9]+", "-"));
            throw new AssertionError("the page did not show \"" + text + "\" within " + WAIT.toSeconds()
                    + " s; it shows:\n" + text(), e);
        }
    }

    /** The text of every element matching {@code locator}, in page order. */
    List<String> texts(By locator) {
        return driver.findElements(locator).stream().map(WebElement::getText).toList();
    }

    boolean present(By locator) {
        return !driver.findElements(locator).isEmpty();
    }

    String text() {
        return driver.findElement(By.tagName("body")).getText();
    }

    void click(By locator) {
        wait.until(ExpectedConditions.elementToBeClickable(locator)).click();
    }

    /** Clicks a button that asks first ({@code confirm}), accepts, and answers what the question said. */
    String clickAndConfirm(By locator) {
        click(locator);
        org.openqa.selenium.Alert alert = wait.until(ExpectedConditions.alertIsPresent());
        String question = alert.getText();
        alert.accept();
        return question;
    }

    /**
     * Checks the page with axe-core at 1280 and 390 px wide, in the light and the dark scheme, saving a screenshot
     * of each as {@code <name>-<width>-<scheme>}; leaves the window wide and light.
     */
    void assertAccessibleEverywhere(String name) {
        for (boolean phone : new boolean[] {false, true}) {
            for (boolean dark : new boolean[] {false, true}) {
                phoneWidth(phone);
                darkScheme(dark);
                String shot = name + "-" + (phone ? "390" : "1280") + "-" + (dark ? "dark" : "light");
                assertAccessible(shot);
                screenshot(shot);
            }
        }
        phoneWidth(false);
        darkScheme(false);
    }

    void type(By locator, String text) {
        WebElement field = waitFor(locator);
        field.clear();
        field.sendKeys(text);
    }

    /** Chooses the option showing {@code text} in a select. */
    void selectByText(By locator, String text) {
        new Select(waitFor(locator)).selectByVisibleText(text);
    }

    /** Replaces a text area's content the way a paste does (one input event), not key by key. */
    void replaceText(By locator, String text) {
        WebElement field = waitFor(locator);
        driver.executeScript("const f = arguments[0]; f.value = arguments[1];"
                + "f.dispatchEvent(new Event('input', {bubbles: true}));", field, text);
    }

    /** Runs a script in the page (as the page's own code would), returning what its promise resolves to. */
    Object inPage(String asyncScript, Object... args) {
        return driver.executeAsyncScript(asyncScript, args);
    }

    void phoneWidth(boolean phone) {
        driver.manage().window().setSize(phone ? new Dimension(390, 844) : new Dimension(1280, 900));
    }

    /** Emulates the system's dark (or light) colour scheme. */
    void darkScheme(boolean dark) {
        driver.executeCdpCommand("Emulation.setEmulatedMedia", Map.of("features",
                List.of(Map.of("name", "prefers-color-scheme", "value", dark ? "dark" : "light"))));
    }

    /** Saves a screenshot as {@code target/console-screenshots/<name>.png}. */
    Path screenshot(String name) {
        try {
            Files.createDirectories(SCREENSHOTS);
            Path file = SCREENSHOTS.resolve(name + ".png");
            Files.write(file, driver.getScreenshotAs(OutputType.BYTES));
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Runs axe-core (WCAG 2 A and AA rules and best practices) on the page as it is, and fails on any serious or
     * critical violation, listing each with the elements it found.
     */
    @SuppressWarnings("unchecked")
    void assertAccessible(String page) {
        if (!(Boolean) driver.executeScript("return typeof window.axe !== 'undefined'")) {
            driver.executeScript(axeSource());
        }
        Map<String, Object> results = (Map<String, Object>) driver.executeAsyncScript(
                "const done = arguments[arguments.length - 1];"
                        + "axe.run(document, {resultTypes: ['violations']}).then(done, e => done({error: String(e)}));");
        assertEquals(null, results.get("error"), "axe-core failed on " + page);
        List<String> serious = new ArrayList<>();
        for (Map<String, Object> violation : (List<Map<String, Object>>) results.get("violations")) {
            Object impact = violation.get("impact");
            if ("serious".equals(impact) || "critical".equals(impact)) {
                List<String> targets = new ArrayList<>();
                for (Map<String, Object> node : (List<Map<String, Object>>) violation.get("nodes")) {
                    targets.add(String.valueOf(node.get("target")));
                }
                serious.add(impact + " " + violation.get("id") + ": " + violation.get("help") + " " + targets);
            }
        }
        assertEquals(List.of(), serious, "accessibility of the " + page + " page");
    }

    private static String axeSource() {
        try (InputStream in = ConsoleBrowser.class.getClassLoader().getResourceAsStream("axe.min.js")) {
            if (in == null) {
                throw new IllegalStateException("axe.min.js is not on the test class path (com.deque.html.axe-core)");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        driver.quit();
    }
}
