//! A short wait that yields to the browser's event loop, for the WebGL2 read-back's polling.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Resolves about 1 ms later, in a later task. The timer is started from a message task: a
/// timer started from a timer's own task counts as nested, and browsers stretch nested timers
/// to 4 ms after five levels, which added 2 to 4 ms to every WebGL2 read-back.
pub(super) async fn short_wait() -> Result<(), JsValue> {
    let global = js_sys::global();
    if let Ok(ctor) = js_sys::Reflect::get(&global, &"MessageChannel".into())?.dyn_into::<js_sys::Function>() {
        let channel = js_sys::Reflect::construct(&ctor, &js_sys::Array::new())?;
        let port1 = js_sys::Reflect::get(&channel, &"port1".into())?;
        let port2 = js_sys::Reflect::get(&channel, &"port2".into())?;
        let message = js_sys::Promise::new(&mut |resolve, _| {
            let _ = js_sys::Reflect::set(&port1, &"onmessage".into(), &resolve);
        });
        let post: js_sys::Function = js_sys::Reflect::get(&port2, &"postMessage".into())?.dyn_into()?;
        post.call1(&port2, &JsValue::NULL)?;
        wasm_bindgen_futures::JsFuture::from(message).await?;
        if let Ok(close) = js_sys::Reflect::get(&port1, &"close".into())?.dyn_into::<js_sys::Function>() {
            close.call0(&port1)?;
        }
    }
    let set_timeout: js_sys::Function = js_sys::Reflect::get(&global, &"setTimeout".into())?.dyn_into()?;
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let _ = set_timeout.call2(&JsValue::UNDEFINED, &resolve, &JsValue::from(1));
    });
    wasm_bindgen_futures::JsFuture::from(promise).await.map(|_| ())
}
