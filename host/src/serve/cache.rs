//! Pages rendered once per change, not once per request: every event that changes what a
//! public page shows (the leaderboard recomputed, games counted, a version accepted, the host's
//! commands, the deadline, the final) calls [`Rendered::changed`]; a page is rendered again on
//! the first request after that, and the requests meanwhile are answered from memory.

use std::collections::HashMap;
use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// Most pages kept (one per public page and agent; an agent's page is kept only once asked for).
const MAX_PAGES: usize = 4096;

#[derive(Default)]
pub struct Rendered {
    generation: AtomicU64,
    pages: tokio::sync::Mutex<HashMap<String, (u64, Arc<str>)>>,
}

impl Rendered {
    /// Something public changed: every page is rendered again when next asked for.
    pub fn changed(&self) {
        self.generation.fetch_add(1, Ordering::SeqCst);
    }

    /// The page `key`, rendered by `render` if nothing is kept since the last change. One render
    /// at a time: requests that come meanwhile wait for it rather than render it too.
    pub async fn get<F, Fut>(&self, key: &str, render: F) -> anyhow::Result<Arc<str>>
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = anyhow::Result<String>>,
    {
        let mut pages = self.pages.lock().await;
        let generation = self.generation.load(Ordering::SeqCst);
        if let Some((g, page)) = pages.get(key) {
            if *g == generation {
                return Ok(Arc::clone(page));
            }
        }
        // A change during the render leaves the page older than the new generation: the next
        // request renders it again.
        let page: Arc<str> = render().await?.into();
        if pages.len() >= MAX_PAGES {
            pages.clear();
        }
        pages.insert(key.to_owned(), (generation, Arc::clone(&page)));
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
}
