//! Every error code the engine gives, in one enum: tool errors, API misuse, project loading,
//! OpenCut scenes and frame queries all pick their code here, in the core, so the boundary only
//! converts. The strings are stable once published; the typings export the list
//! (`ERROR_CODES` in js/generated/error-codes.ts) and docs/errors.md describes each.

use std::fmt;

macro_rules! error_codes {
    ($($(#[doc = $doc:literal])* $name:ident = $code:literal,)*) => {
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum ErrorCode {
            $($(#[doc = $doc])* $name,)*
        }

        impl ErrorCode {
            /// Every code, in declaration order.
            pub const ALL: &'static [ErrorCode] = &[$(ErrorCode::$name),*];

            /// The stable SCREAMING_SNAKE string.
            pub const fn as_str(self) -> &'static str {
                match self { $(ErrorCode::$name => $code,)* }
            }

            /// What the code means, in one sentence (from its doc comment).
            pub fn meaning(self) -> &'static str {
                match self { $(ErrorCode::$name => concat!($($doc),*).trim_start(),)* }
            }
        }
    };
}

error_codes! {
    /// The editor holds no project.
    NoActiveProject = "NO_ACTIVE_PROJECT",
    /// The project has no timeline.
    NoActiveTimeline = "NO_ACTIVE_TIMELINE",
    /// No asset has the given id.
    AssetNotFound = "ASSET_NOT_FOUND",
    /// The asset's type cannot be handled here (for example context for a type the provider refuses).
    UnsupportedAssetType = "UNSUPPORTED_ASSET_TYPE",
    /// The host's context provider failed to load the asset.
    ContextLoadFailed = "CONTEXT_LOAD_FAILED",
    /// split's times are missing, empty or not numbers.
    InvalidSplitTimes = "INVALID_SPLIT_TIMES",
    /// The timeline has no elements to act on.
    NoTimelineContent = "NO_TIMELINE_CONTENT",
    /// cut_ranges' ranges are missing, empty, or not spans of at least one tick.
    InvalidRanges = "INVALID_RANGES",
    /// elementIds is missing, empty or holds something other than ids.
    InvalidElementIds = "INVALID_ELEMENT_IDS",
    /// elementId is missing or not an id.
    InvalidElementId = "INVALID_ELEMENT_ID",
    /// A start time is negative, not a number or past the limit.
    InvalidStartTime = "INVALID_START_TIME",
    /// An end time is not a number or past the limit.
    InvalidEndTime = "INVALID_END_TIME",
    /// A duration is not a positive number.
    InvalidDuration = "INVALID_DURATION",
    /// The end is not after the start.
    InvalidTimeRange = "INVALID_TIME_RANGE",
    /// A timing update names nothing to change.
    InvalidTimingUpdate = "INVALID_TIMING_UPDATE",
    /// start, end and duration disagree.
    ConflictingTimingValues = "CONFLICTING_TIMING_VALUES",
    /// The element would play past the end of its media.
    DurationExceedsSource = "DURATION_EXCEEDS_SOURCE",
    /// The text is empty.
    TextRequired = "TEXT_REQUIRED",
    /// No text element has the given id.
    TextElementNotFound = "TEXT_ELEMENT_NOT_FOUND",
    /// The element is not a text element.
    ElementNotText = "ELEMENT_NOT_TEXT",
    /// The track type cannot hold the asset's kind of element.
    InvalidTrackType = "INVALID_TRACK_TYPE",
    /// No element has the given id.
    ElementNotFound = "ELEMENT_NOT_FOUND",
    /// The volume is out of range.
    InvalidVolume = "INVALID_VOLUME",
    /// The element has no sound.
    VolumeNotSupported = "VOLUME_NOT_SUPPORTED",
    /// No sticker in the catalog has the given id.
    StickerNotFound = "STICKER_NOT_FOUND",
    /// effectType is missing or not a string.
    InvalidEffectType = "INVALID_EFFECT_TYPE",
    /// Effect parameters are not an object of numbers.
    InvalidEffectParameters = "INVALID_EFFECT_PARAMETERS",
    /// No track could take the effect element.
    PlacementFailed = "PLACEMENT_FAILED",
    /// update_effect needs a non-empty params object.
    ParamsRequired = "PARAMS_REQUIRED",
    /// The element is not an effect element.
    ElementNotEffect = "ELEMENT_NOT_EFFECT",
    /// Some of the given element ids are not on the timeline.
    ElementsNotFound = "ELEMENTS_NOT_FOUND",
    /// The given element id is not on the timeline.
    TimelineElementNotFound = "TIMELINE_ELEMENT_NOT_FOUND",
    /// The target track id is not on the timeline.
    TargetTrackNotFound = "TARGET_TRACK_NOT_FOUND",
    /// The effect type is not registered or not enabled by the host.
    EffectNotFound = "EFFECT_NOT_FOUND",
    /// An effect parameter the effect does not have.
    UnknownParameter = "UNKNOWN_PARAMETER",
    /// An effect parameter is below its minimum or above its maximum.
    ParameterOutOfRange = "PARAMETER_OUT_OF_RANGE",
    /// Another element is in the way of the placement.
    Overlap = "OVERLAP",
    /// The track cannot hold this kind of element.
    IncompatibleTrack = "INCOMPATIBLE_TRACK",
    /// The host does not draw elements of that type (its `elementKinds`), so the tool adds none.
    ElementKindNotDrawn = "ELEMENT_KIND_NOT_DRAWN",
    /// No tool has the given name.
    UnknownTool = "UNKNOWN_TOOL",
    /// An argument the tool does not take.
    UnknownArgument = "UNKNOWN_ARGUMENT",
    /// An argument has the wrong type or value.
    InvalidArgument = "INVALID_ARGUMENT",
    /// The arguments are not a JSON object.
    InvalidArguments = "INVALID_ARGUMENTS",
    /// A readable reference (clip-2) names no element.
    UnknownReference = "UNKNOWN_REFERENCE",
    /// A readable reference could name more than one element.
    AmbiguousReference = "AMBIGUOUS_REFERENCE",
    /// batch's steps are missing or malformed.
    InvalidBatchSteps = "INVALID_BATCH_STEPS",
    /// The tool cannot run inside batch.
    NotInBatch = "NOT_IN_BATCH",
    /// The undo stack is empty.
    NothingToUndo = "NOTHING_TO_UNDO",
    /// The redo stack is empty.
    NothingToRedo = "NOTHING_TO_REDO",
    /// No track has the given id.
    TrackNotFound = "TRACK_NOT_FOUND",
    /// trackId is missing or not an id.
    InvalidTrackId = "INVALID_TRACK_ID",
    /// A track cannot move to the requested position.
    InvalidTrackPosition = "INVALID_TRACK_POSITION",
    /// The track cannot be muted or hidden.
    TrackFlagNotSupported = "TRACK_FLAG_NOT_SUPPORTED",
    /// update_track names nothing to change.
    NoTrackChange = "NO_TRACK_CHANGE",
    /// A clip property is out of its range.
    PropertyOutOfRange = "PROPERTY_OUT_OF_RANGE",
    /// The element does not have the property.
    PropertyNotSupported = "PROPERTY_NOT_SUPPORTED",
    /// The property cannot be keyframed on this element.
    PropertyNotAnimatable = "PROPERTY_NOT_ANIMATABLE",
    /// update_clip (or update_project) names nothing to change.
    NoProperties = "NO_PROPERTIES",
    /// offset and startTime were both given.
    ConflictingPlacement = "CONFLICTING_PLACEMENT",
    /// No keyframe has the given id or time.
    KeyframeNotFound = "KEYFRAME_NOT_FOUND",
    /// The keyframe selector is malformed.
    InvalidKeyframe = "INVALID_KEYFRAME",
    /// A keyframe time is outside the element.
    InvalidKeyframeTime = "INVALID_KEYFRAME_TIME",
    /// The keyframe is the last: it has no curve to the next one.
    NoNextKeyframe = "NO_NEXT_KEYFRAME",
    /// The keyframe is the first: it has no curve from the previous one.
    NoPreviousKeyframe = "NO_PREVIOUS_KEYFRAME",
    /// update_keyframe_curve names nothing to change.
    NoCurveChange = "NO_CURVE_CHANGE",
    /// add_captions was given no words, or none inside the element.
    NoWords = "NO_WORDS",
    /// A transcript word is not `{ start, end, text }` in timeline seconds, in spoken order.
    InvalidWords = "INVALID_WORDS",
    /// A subtitle file has a malformed cue or none (the message names the line).
    InvalidSubtitles = "INVALID_SUBTITLES",
    /// The timeline holds no captions to export.
    NoCaptions = "NO_CAPTIONS",
    /// The asset has no element on the timeline (captions need timeline times).
    AssetNotPlaced = "ASSET_NOT_PLACED",
    /// addAsset's description is invalid.
    InvalidAsset = "INVALID_ASSET",
    /// addSticker's description is invalid.
    InvalidSticker = "INVALID_STICKER",
    /// An asset or sticker with this id exists already.
    DuplicateId = "DUPLICATE_ID",
    /// The text is not valid JSON.
    InvalidJson = "INVALID_JSON",
    /// The project breaks a rule of the format (overlap, duplicate id, wrong track type, ...).
    InvalidProject = "INVALID_PROJECT",
    /// The project is of another format or a newer version.
    UnsupportedProject = "UNSUPPORTED_PROJECT",
    /// The OpenCut scene cannot be read.
    InvalidScene = "INVALID_SCENE",
    /// The context provider is malformed.
    InvalidProvider = "INVALID_PROVIDER",
    /// The host's effect list names an unknown effect.
    InvalidEffects = "INVALID_EFFECTS",
    /// The host's element kinds (`elementKinds`) name an unknown element type.
    InvalidElementKinds = "INVALID_ELEMENT_KINDS",
    /// finishContext was called with an unknown or finished ticket.
    UnknownContextRequest = "UNKNOWN_CONTEXT_REQUEST",
    /// A time in seconds is negative or not a number.
    InvalidSeconds = "INVALID_SECONDS",
    // Codes the JS layer gives (agent, proxy client, MCP and CLI, host tools): listed here so the
    // generated list is complete.
    /// The editor was disposed; create a new one.
    EditorDisposed = "EDITOR_DISPOSED",
    /// The page has no WebMCP model context to register tools with, or it refused one of them.
    WebmcpUnavailable = "WEBMCP_UNAVAILABLE",
    /// The agent's proxy failed after its retries (AgentError; the message says what to do).
    Proxy = "PROXY",
    /// Gemini returned no answer (blocked, out of tokens, or empty).
    EmptyResponse = "EMPTY_RESPONSE",
    /// Gemini produced a malformed function call twice.
    MalformedCall = "MALFORMED_CALL",
    /// Over a size limit: one agent step cannot fit the proxy's limits, or a body is over the proxy's.
    TooLarge = "TOO_LARGE",
    /// send was called while the previous message is still being answered.
    Busy = "BUSY",
    /// The agent reached its step bound for one message.
    MaxSteps = "MAX_STEPS",
    /// Not even the newest turn fits the history bounds.
    HistoryTooLarge = "HISTORY_TOO_LARGE",
    /// The user declined an upload to Gemini.
    UploadDeclined = "UPLOAD_DECLINED",
    /// Uploads need consent (confirm) or allowUploads: true.
    UploadsNotAllowed = "UPLOADS_NOT_ALLOWED",
    /// A server of the package (the Gemini proxy, the control-channel relay) could not listen on its host and port (in use, not permitted).
    ListenFailed = "LISTEN_FAILED",
    /// The proxy could not be reached (ProxyError; the proxy's own refusals carry the codes below).
    Unreachable = "UNREACHABLE",
    /// The proxy answered an HTTP error with no code of this list (ProxyError.status holds the status).
    HttpError = "HTTP_ERROR",
    // The Gemini proxy's refusals (js/proxy/): lower-cased on the wire (`rate_limited`),
    // upper-cased in ProxyError.code and in the proxy's own errors.
    /// Proxy: the request is malformed (the message names the field).
    BadRequest = "BAD_REQUEST",
    /// Proxy: the request is not allowed.
    Forbidden = "FORBIDDEN",
    /// Proxy: no such route or file handle.
    NotFound = "NOT_FOUND",
    /// Proxy: the route serves another HTTP method.
    MethodNotAllowed = "METHOD_NOT_ALLOWED",
    /// Proxy: the page's origin is not allowed.
    OriginRefused = "ORIGIN_REFUSED",
    /// Proxy: the request did not arrive in time.
    Timeout = "TIMEOUT",
    /// Proxy: the request body did not arrive in time.
    BodyTimeout = "BODY_TIMEOUT",
    /// Proxy: the uploaded file has expired or was deleted.
    Gone = "GONE",
    /// Proxy: an upload needs a Content-Length.
    LengthRequired = "LENGTH_REQUIRED",
    /// Proxy: only video, audio and image files can be uploaded.
    UnsupportedMediaType = "UNSUPPORTED_MEDIA_TYPE",
    /// Proxy: the model is not on the proxy's allow-list.
    ModelNotAllowed = "MODEL_NOT_ALLOWED",
    /// Proxy: an inline image is over the proxy's byte limit.
    ImageTooLarge = "IMAGE_TOO_LARGE",
    /// Proxy: the request holds more turns than the proxy takes.
    TooManyTurns = "TOO_MANY_TURNS",
    /// Proxy: the request holds more parts than the proxy takes.
    TooManyParts = "TOO_MANY_PARTS",
    /// Proxy: the request holds more than one inline image.
    TooManyImages = "TOO_MANY_IMAGES",
    /// Proxy: the request attaches more files than the proxy takes.
    TooManyFiles = "TOO_MANY_FILES",
    /// Proxy: the request declares more functions than the proxy takes.
    TooManyTools = "TOO_MANY_TOOLS",
    /// Proxy: the request attaches the same file twice.
    DuplicateFile = "DUPLICATE_FILE",
    /// Proxy: the upload stopped sending.
    UploadStalled = "UPLOAD_STALLED",
    /// Proxy: the upload arrived slower than the proxy's minimum rate.
    UploadTooSlow = "UPLOAD_TOO_SLOW",
    /// Proxy: the upload broke off.
    UploadInterrupted = "UPLOAD_INTERRUPTED",
    /// Proxy: a per-user or global budget is spent (the answer says which and when it resets).
    RateLimited = "RATE_LIMITED",
    /// Proxy: the budget store cannot count right now; nothing was spent.
    StoreUnavailable = "STORE_UNAVAILABLE",
    /// Proxy: the in-memory budget store holds its maximum of live counters.
    StoreFull = "STORE_FULL",
    /// Proxy: Gemini failed or answered something unusable.
    UpstreamError = "UPSTREAM_ERROR",
    /// The user stopped the call before it ran (or, at the proxy, the client went away).
    Cancelled = "CANCELLED",
    /// The user declined the change when asked to confirm it.
    Declined = "DECLINED",
    /// The agent's bound on destructive calls per message was reached.
    DestructiveLimit = "DESTRUCTIVE_LIMIT",
    /// The user pressed Stop: the agent's model call, running tool and pending questions were abandoned.
    Stopped = "STOPPED",
    /// The agent is in read-only mode: a tool that changes the project was refused.
    ReadOnly = "READ_ONLY",
    /// The user rejected the agent's plan, so the edits of that turn were refused.
    PlanRejected = "PLAN_REJECTED",
    /// A question or plan got no answer (no handler, or the handler failed).
    NoAnswer = "NO_ANSWER",
    /// load_skill named a skill that does not exist.
    SkillNotFound = "SKILL_NOT_FOUND",
    /// agent.retry() was called with no failed message to run again.
    NothingToRetry = "NOTHING_TO_RETRY",
    /// A host tool returned nothing.
    NoResult = "NO_RESULT",
    /// A host tool threw instead of returning an error value.
    ToolFailed = "TOOL_FAILED",
    /// transcribe_video needs an assetId when the timeline does not use exactly one.
    AssetRequired = "ASSET_REQUIRED",
    /// The uploaded asset is still being processed by Gemini.
    AssetProcessing = "ASSET_PROCESSING",
    /// Transcription failed (the details say where).
    TranscribeFailed = "TRANSCRIBE_FAILED",
    /// detect_silences or detect_scenes could not decode the media (the details say why).
    DecodeFailed = "DECODE_FAILED",
    /// media_import could not read or add a file.
    MediaUnreadable = "MEDIA_UNREADABLE",
    /// render_preview could not draw the frame (no Chromium, a page error, ...).
    RenderFailed = "RENDER_FAILED",
    /// The project file named (--project) does not exist or cannot be read.
    ProjectUnreadable = "PROJECT_UNREADABLE",
    /// A CLI script line is not {"tool", "args"} JSON.
    InvalidLine = "INVALID_LINE",
    /// An option or argument of a package function is missing, out of range or of the wrong kind (renderer, export, proxy, editor, connectOpenCut).
    InvalidOptions = "INVALID_OPTIONS",
    /// A command line is malformed (an unknown option, a missing value): the CLI prints it with its usage and exits 2.
    Usage = "USAGE",
    /// The GPU backend asked for by name (createEffectRenderer's or createFrameRenderer's backend "webgpu" or "webgl2") could not be opened; "auto" falls back instead.
    NoGpu = "NO_GPU",
    /// An effect list is malformed, names an unknown effect or parameter, or holds a value out of range (validateEffects, an effect renderer, applyEffectsCpu).
    InvalidEffectList = "INVALID_EFFECT_LIST",
    /// The page cannot make the 2D canvas a source is staged through.
    NoCanvas = "NO_CANVAS",
    /// The effect source is smaller than the size asked for.
    SourceTooSmall = "SOURCE_TOO_SMALL",
    /// The effect or frame renderer was destroyed; make a new one.
    RendererDestroyed = "RENDERER_DESTROYED",
    /// A frame was asked for before any was rendered.
    NothingRendered = "NOTHING_RENDERED",
    /// A layer's media could not be found or loaded (no source, a failed load, a timeout).
    NoSource = "NO_SOURCE",
    /// exportVideo's or export_video's options are invalid (format, size, range, fps).
    InvalidExport = "INVALID_EXPORT",
    /// The browser cannot encode the codec the format needs; the message names the alternatives.
    CodecUnsupported = "CODEC_UNSUPPORTED",
    /// Another export is running in this session.
    ExportBusy = "EXPORT_BUSY",
    /// The export failed while rendering, encoding or writing (the details say where).
    ExportFailed = "EXPORT_FAILED",
    /// The export was cancelled; nothing was left at the path.
    ExportCancelled = "EXPORT_CANCELLED",
    /// No export job has the given id.
    JobNotFound = "JOB_NOT_FOUND",
    /// The export job has already finished.
    JobNotRunning = "JOB_NOT_RUNNING",
    /// A control-channel client or page, or a proxy caller, gave no token or a wrong one.
    Unauthorized = "UNAUTHORIZED",
    /// No page is connected to the control channel's relay.
    NoPage = "NO_PAGE",
    /// The page went away or did not answer in time.
    PageTimeout = "PAGE_TIMEOUT",
    /// A control-channel client was silent past the relay's idle limit and was closed.
    IdleTimeout = "IDLE_TIMEOUT",
    /// The relay holds as many connections as it allows; the new one was closed.
    TooManyConnections = "TOO_MANY_CONNECTIONS",
    /// The control channel has no such method.
    UnknownMethod = "UNKNOWN_METHOD",
    /// A control-channel line is not a {id, method, params} request.
    InvalidRequest = "INVALID_REQUEST",
    /// A control-channel method's params are malformed (MCP's -32602).
    InvalidParams = "INVALID_PARAMS",
    /// No element has that automation id, or none is at that point.
    NoElement = "NO_ELEMENT",
    /// The page has no UI adapter for this method.
    Unsupported = "UNSUPPORTED",
    /// A panic inside the engine (the editor was rebuilt from its last committed state), or a bug in the package or the proxy.
    Internal = "INTERNAL",
}

/// The shape the engine's error types share (`ApiError`, `ProjectError`, `ToolError`): a code
/// and a message (its `Display`). The wasm boundary converts any of them one way
/// (`src/wasm/mod.rs`), so a new error type needs only this impl.
pub trait CodedError: fmt::Display {
    fn code(&self) -> ErrorCode;
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PartialEq<&str> for ErrorCode {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<ErrorCode> for &str {
    fn eq(&self, other: &ErrorCode) -> bool {
        *self == other.as_str()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_screaming_snake_and_described() {
        let mut seen = std::collections::HashSet::new();
        for c in ErrorCode::ALL {
            let s = c.as_str();
            assert!(seen.insert(s), "{s} twice");
            assert!(s.split('_').all(|w| !w.is_empty() && w.chars().all(|ch| ch.is_ascii_uppercase() || ch.is_ascii_digit())), "{s}");
            assert!(c.meaning().ends_with('.') && c.meaning().len() > 10, "{s}: {}", c.meaning());
        }
    }
}
