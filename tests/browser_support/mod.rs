//! Shared helpers of the browser tests: headless Chromium driven over WebDriver (Debian's
//! `chromium-driver`). Both are required: without them a browser test fails (it never skips).
//! `scripts/install-test-tools.sh` installs both; `ARENA_CHROMIUM` and `ARENA_CHROMEDRIVER` point
//! at other binaries.

#![allow(dead_code)]

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::elements::Element;
use fantoccini::{Client, ClientBuilder, Locator};

/// The binary named by the environment variable `var`, else the first of `names` on `PATH`.
fn binary(var: &str, names: &[&str]) -> PathBuf {
    if let Some(p) = std::env::var_os(var) {
        return PathBuf::from(p);
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    for name in names {
        for dir in std::env::split_paths(&path) {
            let candidate = dir.join(name);
            if candidate.is_file() {
                return candidate;
            }
        }
    }
    panic!(
        "{} is needed for the browser tests and was not found on PATH (install chromium and \
         chromium-driver with scripts/install-test-tools.sh, or set {var})",
        names[0]
    );
}

/// A running ChromeDriver, stopped when dropped.
pub struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// ChromeDriver on a free port.
pub fn chromedriver() -> (Driver, u16) {
    let chromedriver = binary("ARENA_CHROMEDRIVER", &["chromedriver"]);
    let port = free_port();
    let driver = Driver(
        Command::new(&chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver"),
    );
    (driver, port)
}

/// A headless Chromium session through the ChromeDriver on `port`, its profile in `dir`. Pages
/// opened from files may read the files beside them (the report's viewers load their replays).
pub async fn browser(port: u16, dir: &Path) -> Client {
    let chromium = binary(
        "ARENA_CHROMIUM",
        &["chromium", "chromium-browser", "google-chrome"],
    );
    let profile = dir.join("chromium-profile");
    std::fs::create_dir_all(&profile).unwrap();
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        serde_json::json!({
            "binary": chromium,
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run",
                "--allow-file-access-from-files", "--window-size=1280,1000",
                format!("--user-data-dir={}", profile.display()),
            ],
        }),
    );
    let webdriver = format!("http://127.0.0.1:{port}");
    let started = Instant::now();
    loop {
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        match ClientBuilder::new(connector)
            .capabilities(caps.clone())
            .connect(&webdriver)
            .await
        {
            Ok(c) => return c,
            Err(_) if started.elapsed() < Duration::from_secs(30) => {
                tokio::time::sleep(Duration::from_millis(250)).await;
            }
            Err(e) => panic!("cannot start a browser session: {e}"),
        }
    }
}

/// The text of the element with the id `id`.
pub async fn text_of(c: &Client, id: &str) -> String {
    c.find(Locator::Id(id)).await.unwrap().text().await.unwrap()
}

/// Clicks the element with the id `id`.
pub async fn click(c: &Client, id: &str) {
    c.find(Locator::Id(id))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
}

/// The element `css` selects, waited for at most `secs` seconds.
pub async fn wait_for(c: &Client, css: &str, secs: u64) -> Element {
    c.wait()
        .at_most(Duration::from_secs(secs))
        .for_element(Locator::Css(css))
        .await
        .unwrap()
}

/// The `data-verdict` of an upload's or a test's element.
pub async fn verdict_of(e: &Element) -> Option<String> {
    e.attr("data-verdict").await.unwrap()
}
