//! Copying a rendered texture back to the CPU. The native tests wait for it by blocking, the
//! browser's `readPixels` through a Promise; the copy and the unpacking of rows are this one.

/// A texture region copied into a mappable buffer whose rows are padded to wgpu's alignment.
pub(crate) struct ReadBack {
    buffer: wgpu::Buffer,
    width: u32,
    height: u32,
    /// Bytes per buffer row (`width × 4` rounded up to `COPY_BYTES_PER_ROW_ALIGNMENT`).
    row: u32,
}

impl ReadBack {
    /// Copies the `width × height` region at (`x`, `y`) of `texture` into a new buffer and
    /// submits the copy. Map [`ReadBack::slice`] next.
    pub fn start(device: &wgpu::Device, queue: &wgpu::Queue, texture: &wgpu::Texture, (x, y): (u32, u32), (width, height): (u32, u32)) -> ReadBack {
        let row = (width * 4).div_ceil(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT) * wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
        let buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("read back"),
            size: row as u64 * height as u64,
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        });
        let mut encoder = device.create_command_encoder(&Default::default());
        encoder.copy_texture_to_buffer(
            wgpu::TexelCopyTextureInfo { texture, mip_level: 0, origin: wgpu::Origin3d { x, y, z: 0 }, aspect: wgpu::TextureAspect::All },
            wgpu::TexelCopyBufferInfo {
                buffer: &buffer,
                layout: wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(row), rows_per_image: Some(height) },
            },
            wgpu::Extent3d { width, height, depth_or_array_layers: 1 },
        );
        queue.submit([encoder.finish()]);
        ReadBack { buffer, width, height, row }
    }

    /// The whole buffer, to map for reading.
    pub fn slice(&self) -> wgpu::BufferSlice<'_> {
        self.buffer.slice(..)
    }

    /// Once the mapping has succeeded: each row's RGBA8 pixels, top to bottom, with its index,
    /// handed to `each`; then the buffer is unmapped.
    pub fn rows(self, mut each: impl FnMut(u32, &[u8])) -> Result<(), String> {
        let mapped = self.buffer.slice(..).get_mapped_range().map_err(|e| e.to_string())?;
        for y in 0..self.height {
            let at = (y * self.row) as usize;
            each(y, &mapped[at..at + self.width as usize * 4]);
        }
        drop(mapped);
        self.buffer.unmap();
        Ok(())
    }
}
