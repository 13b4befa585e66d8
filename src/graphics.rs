//! OpenCut classic's graphics (graphics/definitions at cf5e79e): the shapes a graphic element
//! draws and which definition params each has. A graphic's `definitionId` names its shape; its
//! params (fill, stroke, …) sit in the element's `params` under OpenCut's keys, and their
//! defaults, ranges and animation paths (`params.<key>`) are properties of crate::properties.
//! OpenCut draws every shape into a 512 × 512 source (crate::frame::GRAPHIC_SOURCE_SIZE).

/// One of OpenCut's graphic definitions: its id, the name OpenCut gives a new element of it, and
/// its params in OpenCut's order (the order its `buildDefaultParamValues` writes them).
pub struct Shape {
    pub id: &'static str,
    pub name: &'static str,
    pub params: &'static [&'static str],
}

/// What every shape has first: fill and an aligned stroke.
const COMMON: [&str; 4] = ["fill", "stroke", "strokeWidth", "strokeAlign"];

/// The shape ids in OpenCut's registration order (graphics/definitions/index.ts).
pub const IDS: [&str; 4] = ["rectangle", "ellipse", "polygon", "star"];

pub const SHAPES: [Shape; 4] = [
    Shape { id: IDS[0], name: "Rectangle", params: &["fill", "stroke", "strokeWidth", "strokeAlign", "cornerRadius"] },
    Shape { id: IDS[1], name: "Ellipse", params: &COMMON },
    Shape { id: IDS[2], name: "Polygon", params: &["fill", "stroke", "strokeWidth", "strokeAlign", "sides", "cornerRadius"] },
    Shape { id: IDS[3], name: "Star", params: &["fill", "stroke", "strokeWidth", "strokeAlign", "points", "depth"] },
];

/// The shape `id` names (exact case, as OpenCut's registry looks it up; any other id throws there).
pub fn shape(id: &str) -> Option<&'static Shape> {
    SHAPES.iter().find(|s| s.id == id)
}

/// Whether a graphic of shape `id` has the definition param `key`.
pub fn has(id: Option<&str>, key: &str) -> bool {
    id.and_then(shape).is_some_and(|s| s.params.contains(&key))
}

/// The property path of a definition param: OpenCut animates `params.<key>`.
pub const PATH_PREFIX: &str = "params.";

/// The property of the definition param `key` (its path `params.<key>`), found without building
/// the path: the frame asks for each of a graphic's params on every frame.
pub fn property(key: &str) -> Option<&'static crate::properties::Property> {
    crate::properties::PROPERTIES.iter().find(|p| p.path.strip_prefix(PATH_PREFIX) == Some(key))
}

/// A new graphic's params: every definition param of `shape` at its default, in OpenCut's order
/// (its `buildDefaultParamValues`).
pub fn defaults(shape: &Shape) -> serde_json::Map<String, serde_json::Value> {
    let mut p = serde_json::Map::new();
    for key in shape.params {
        if let Some(prop) = property(key) {
            p.insert(key.to_string(), prop.default_value(0));
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every definition param is a property (one home for its default and range), and every
    /// graphic property belongs to some shape.
    #[test]
    fn definition_params_are_the_graphic_properties() {
        for s in &SHAPES {
            for key in s.params {
                let p = property(key).unwrap_or_else(|| panic!("{}: {key}", s.id));
                assert!(p.applies(crate::model::ElementType::Graphic), "{key}");
            }
        }
        for p in crate::properties::PROPERTIES.iter().filter(|p| p.path.starts_with(PATH_PREFIX)) {
            let key = &p.path[PATH_PREFIX.len()..];
            assert!(SHAPES.iter().any(|s| s.params.contains(&key)), "{}", p.path);
        }
    }
}
