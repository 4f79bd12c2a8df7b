//! Pages rendered once per change, not once per request: every event that changes what a
//! public page shows (the leaderboard recomputed, games counted, a version accepted, the host's
//! commands, the deadline, the final) calls [`Rendered::changed`]; a page is rendered again on
//! the first request after that, and the requests meanwhile are answered from memory. While the
//! ladder plays, games are counted many times a second: the requests that come while one of
//! them renders a page again get the page as it was (one change behind), instead of queueing
//! behind the render, so a busy ladder does not make every request wait for a render.

use std::collections::HashMap;
use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

/// Most pages kept (one per public page and agent; an agent's page is kept only once asked for).
const MAX_PAGES: usize = 4096;

struct Page {
    /// The generation it was rendered at.
    generation: u64,
    page: Arc<str>,
    /// Whether a request is rendering it again.
    rendering: bool,
}

#[derive(Default)]
pub struct Rendered {
    generation: AtomicU64,
    pages: Mutex<HashMap<String, Page>>,
}

/// Clears a page's `rendering` mark however its render ends (done, failed, or its request gone).
struct Rendering<'a> {
    cache: &'a Rendered,
    key: &'a str,
}

impl Drop for Rendering<'_> {
    fn drop(&mut self) {
        if let Some(p) = self.cache.lock().get_mut(self.key) {
            p.rendering = false;
        }
    }
}

impl Rendered {
    /// Something public changed: every page is rendered again when next asked for.
    pub fn changed(&self) {
        self.generation.fetch_add(1, Ordering::SeqCst);
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<String, Page>> {
        self.pages.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The page `key`, rendered by `render` if nothing is kept since the last change. One render
    /// of a page at a time: requests that come meanwhile get the page as it was, if there is one.
    pub async fn get<F, Fut>(&self, key: &str, render: F) -> anyhow::Result<Arc<str>>
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = anyhow::Result<String>>,
    {
        let generation = self.generation.load(Ordering::SeqCst);
        if let Some(p) = self.lock().get_mut(key) {
            if p.generation == generation || p.rendering {
                return Ok(Arc::clone(&p.page));
            }
            p.rendering = true;
        }
        let _rendering = Rendering { cache: self, key };
        // A change during the render leaves the page older than the new generation: the next
        // request renders it again.
        let page: Arc<str> = render().await?.into();
        let mut pages = self.lock();
        if pages.len() >= MAX_PAGES {
            pages.clear();
        }
        let newer = pages.get(key).is_some_and(|p| p.generation > generation);
        if !newer {
            pages.insert(
                key.to_owned(),
                Page {
                    generation,
                    page: Arc::clone(&page),
                    rendering: false,
                },
            );
        }
        Ok(page)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_page_is_rendered_once_per_change() {
        let cache = Rendered::default();
        let renders = std::sync::atomic::AtomicUsize::new(0);
        let render = || async {
            let n = renders.fetch_add(1, Ordering::SeqCst);
            Ok(format!("page {n}"))
        };
        assert_eq!(&*cache.get("/", render).await.unwrap(), "page 0");
        assert_eq!(&*cache.get("/", render).await.unwrap(), "page 0");
        assert_eq!(&*cache.get("/x", render).await.unwrap(), "page 1");
        cache.changed();
        assert_eq!(&*cache.get("/", render).await.unwrap(), "page 2");
        assert_eq!(&*cache.get("/", render).await.unwrap(), "page 2");
        assert_eq!(renders.load(Ordering::SeqCst), 3);
    }

    /// While a page is rendered again after a change, other requests get it as it was instead
    /// of waiting for the render; the render's page is kept for the next ones.
    #[tokio::test]
    async fn requests_during_a_render_get_the_page_as_it_was() {
        let cache = Rendered::default();
        let first = cache.get("/", || async { Ok("old".to_string()) }).await;
        assert_eq!(&*first.unwrap(), "old");
        cache.changed();
        let (go, wait) = tokio::sync::oneshot::channel::<()>();
        let slow = cache.get("/", || async move {
            wait.await.unwrap();
            Ok("new".to_string())
        });
        let meanwhile = async {
            // Polled after the slow render began (join polls in order).
            let page = cache
                .get("/", || async {
                    Err(anyhow::anyhow!("rendered twice at once"))
                })
                .await
                .unwrap();
            go.send(()).unwrap();
            page
        };
        let (slow, meanwhile) = tokio::join!(slow, meanwhile);
        assert_eq!(&*meanwhile, "old");
        assert_eq!(&*slow.unwrap(), "new");
        let next = cache
            .get("/", || async { Err(anyhow::anyhow!("rendered again")) })
            .await;
        assert_eq!(&*next.unwrap(), "new");
    }
}
