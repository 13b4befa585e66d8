//! Native setup and read-back, for the GPU tests (Vulkan; Mesa's lavapipe in CI).

use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, RawWaker, RawWakerVTable, Waker};

use super::readback::ReadBack;
use super::Renderer;
use crate::effects::reference::RgbaImage;

/// Runs a future to completion on this thread. wgpu's native futures are ready at once or
/// after a device poll, so a spin on a no-op waker is enough.
pub fn block_on<F: Future>(future: F) -> F::Output {
    fn raw() -> RawWaker {
        fn clone(_: *const ()) -> RawWaker {
            raw()
        }
        fn noop(_: *const ()) {}
        static VTABLE: RawWakerVTable = RawWakerVTable::new(clone, noop, noop, noop);
        RawWaker::new(std::ptr::null(), &VTABLE)
    }
    // SAFETY: every vtable function ignores the (null) data pointer.
    let waker = unsafe { Waker::from_raw(raw()) };
    let mut future = pin!(future);
    let mut cx = Context::from_waker(&waker);
    loop {
        if let Poll::Ready(v) = future.as_mut().poll(&mut cx) {
            return v;
        }
        std::thread::yield_now();
    }
}

/// A renderer on the first Vulkan adapter. Errors say what is missing (no Vulkan driver: install
/// `mesa-vulkan-drivers libvulkan1`).
pub fn native_renderer() -> Result<(Renderer, wgpu::AdapterInfo), String> {
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor { backends: wgpu::Backends::VULKAN, ..wgpu::InstanceDescriptor::new_without_display_handle() });
    let adapter = block_on(instance.request_adapter(&wgpu::RequestAdapterOptions::default()))
        .map_err(|e| format!("no Vulkan adapter ({e}); install Mesa's lavapipe: apt-get install -y mesa-vulkan-drivers libvulkan1"))?;
    let info = adapter.get_info();
    let (device, queue) =
        block_on(adapter.request_device(&wgpu::DeviceDescriptor { label: Some("neuralcut effects"), required_limits: adapter.limits(), ..Default::default() }))
            .map_err(|e| format!("cannot open {}: {e}", info.name))?;
    Ok((Renderer::new(device, queue), info))
}

impl Renderer {
    /// Copies the last result back to the CPU (blocking).
    pub fn read_output(&self) -> Result<RgbaImage, String> {
        let (width, height) = self.size().ok_or("nothing rendered")?;
        let texture = self.output_texture().expect("sized");
        let read = ReadBack::start(self.device(), self.queue(), texture, (0, 0), (width, height));
        let (tx, rx) = std::sync::mpsc::channel();
        read.slice().map_async(wgpu::MapMode::Read, move |r| {
            let _ = tx.send(r);
        });
        self.device().poll(wgpu::PollType::Wait { submission_index: None, timeout: None }).map_err(|e| e.to_string())?;
        rx.recv().map_err(|e| e.to_string())?.map_err(|e| e.to_string())?;
        let mut pixels = Vec::with_capacity((width * height * 4) as usize);
        read.rows(|_, row| pixels.extend_from_slice(row))?;
        Ok(RgbaImage::new(width, height, pixels))
    }
}
