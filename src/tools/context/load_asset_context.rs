//! load_asset_context: run by the editor with the host's provider (see the parent module).

use crate::tools::registry::prelude::*;
use crate::tools::schema::*;

pub static DEF: ToolDef = ToolDef {
    name: "load_asset_context",
    title: text!("Load asset into context"),
    summary: text!("Watch asset {assetId}"),
    description: text!("Make a project asset (video first; audio and image too) available to the multimodal model by uploading it to Gemini once; later calls reuse the cached file. Returns status loaded, or processing if the file is not ready yet (call again later). Does not edit the timeline. assetId comes from list_project_assets; an unambiguous file name also works."),
    types: Types::of::<Arguments, Returns>(),
    kind: Kind::Context,
    annotations: Annotations { read_only: true, destructive: false, idempotent: true, open_world: true, untrusted_content: true },
    errors: list!(&["Asset not found", "Unsupported asset type", "Failed to load asset context"]),
    example: text!(r#"{"assetId":"a1"}"#),
    run: None,
};

arguments! {
    pub struct Arguments {
        /// Asset id from list_project_assets
        pub asset_id: Arg<NonEmpty>,
    }
}

returns! {
    pub struct Returns {
        asset_id: String,
        #[schemars(extend("enum" = ["loaded", "processing"]))]
        status: String,
        cached: bool,
        #[schemars(extend("const" = crate::tools::context::PROVIDER))]
        provider: String,
        file_uri: Option<String>,
        summary: Option<String>,
    }
}
