//! The Brep-index ops: `classify_segment` and `index_stats`.

use crate::json::Out;
use serde_json::{json, Value};
use touchstone::msp::Split;
use touchstone::poly::RootScalar;
use touchstone::query::{ClaimedPiece, ClassifySegment, ClassifySegmentClaim, IndexStats, IndexStatsClaim};

use super::distance::{posed, CLASSES};
use super::geometry::{claimed_number, named};
use super::{feature_json, num, parse_feature, ClaimField, Context, OpJson};
use crate::encode::Encode;
use crate::error::{Kind, QueryError};
use crate::input::{array, child, points, string, Fields, Number};
use crate::shape::parse_shape;

impl<N: Number> OpJson for ClassifySegment<N> {
    const FIELDS: &'static [&'static str] = &["solid", "pose", "segment"];
    const CLAIM: &'static [ClaimField<ClassifySegmentClaim>] =
        &[claim_field!(pieces: custom claimed_pieces, pieces_json)];
    const SUMMARY: &'static str =
        "a segment's pieces inside, outside and on a solid (any solid, through its Brep-index), with exact parameters";

    fn parse(f: &Fields, ctx: &Context) -> Result<Self, QueryError> {
        let (v, at) = f.required("segment")?;
        let p = points::<N>(v, &at, Some(2))?;
        Ok(ClassifySegment { solid: posed(f, "solid", "pose", ctx)?, segment: [p[0].clone(), p[1].clone()] })
    }

    fn render<S: RootScalar>(&self, out: &Self::Output<S>, _: u32) -> Result<Out, QueryError> {
        let pieces = out
            .pieces
            .iter()
            .map(|p| {
                let mut m = serde_json::Map::new();
                m.insert("class".into(), json!(p.class.name()));
                if let Some(f) = &p.feature {
                    m.insert("feature".into(), feature_json(f));
                }
                m.insert("from".into(), num(&p.from));
                m.insert("to".into(), num(&p.to));
                Value::Object(m)
            })
            .collect();
        let mut m = Out::new();
        m.push("pieces", Value::Array(pieces));
        m.push("dots", json!(out.dots));
        Ok(m)
    }
}

fn claimed_pieces(f: &Fields) -> Result<Option<Vec<ClaimedPiece>>, QueryError> {
    let Some((v, at)) = f.optional("pieces") else { return Ok(None) };
    let items = array(v, &at, None, "pieces")?;
    let mut pieces = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let path = child(&at, i);
        let pf = Fields::of(item, &path, "a piece")?;
        pf.only(&["class", "feature", "from", "to"])?;
        let class = named(&pf, "class", &CLASSES)?
            .ok_or_else(|| QueryError::new(Kind::Missing, &child(&path, "class"), "a claimed piece needs a class"))?;
        pieces.push(ClaimedPiece {
            class,
            feature: pf.optional("feature").map(|(v, at)| parse_feature(v, &at)).transpose()?,
            from: claimed_number(&pf, "from")?,
            to: claimed_number(&pf, "to")?,
        });
    }
    Ok(Some(pieces))
}

fn pieces_json(pieces: &[ClaimedPiece]) -> Value {
    let piece = |p: &ClaimedPiece| {
        let mut o = Out::new();
        o.push("class", json!(p.class.name()));
        if let Some(f) = &p.feature {
            o.push("feature", feature_json(f));
        }
        if let Some(x) = &p.from {
            o.push("from", num(x));
        }
        if let Some(x) = &p.to {
            o.push("to", num(x));
        }
        o.into_value()
    };
    Value::Array(pieces.iter().map(piece).collect())
}

/// A claimed whole number.
fn whole(f: &Fields, key: &str) -> Result<Option<u64>, QueryError> {
    f.optional(key)
        .map(|(v, at)| {
            v.as_u64().ok_or_else(|| QueryError::new(Kind::Type, &at, format!("{key} must be a whole number")))
        })
        .transpose()
}

const SPLITS: [(&str, Split); 2] = [("hybrid", Split::HYBRID), ("autopartition", Split::Autopartition)];

impl<N: Number> Encode for ClassifySegment<N> {
    fn encode(&self) -> Out {
        let mut m = Out::new();
        super::distance::posed_json(&mut m, &self.solid, "solid", "pose");
        m.push("segment", crate::encode::points_json(&self.segment));
        m
    }
}

impl<N: Number> OpJson for IndexStats<N> {
    const FIELDS: &'static [&'static str] = &["solid", "split"];
    const CLAIM: &'static [ClaimField<IndexStatsClaim>] = &[
        claim_field!(nodes: custom |f| whole(f, "nodes"), |n: &u64| json!(n)),
        claim_field!(height: custom |f| whole(f, "height"), |n: &u64| json!(n)),
        claim_field!(average_height: number),
    ];
    const SUMMARY: &'static str =
        "Brep-index figures (Vaněček 1990 Table 1): internal nodes, height, average height of the entity leaves";

    fn parse(f: &Fields, ctx: &Context) -> Result<Self, QueryError> {
        let (v, at) = f.required("solid")?;
        let solid = parse_shape(v, &at, ctx)?;
        let split = match f.optional("split") {
            None => Split::HYBRID,
            Some((v, at)) => {
                let s = string(v, &at, "split")?;
                SPLITS.iter().find(|(n, _)| *n == s).map(|&(_, t)| t).ok_or_else(|| {
                    QueryError::new(Kind::Unknown, &at, format!("unknown split {s:?} (hybrid, autopartition)"))
                })?
            }
        };
        Ok(IndexStats { solid, split })
    }

    fn render<S: RootScalar>(&self, out: &Self::Output<S>, _: u32) -> Result<Out, QueryError> {
        let s = &out.stats;
        let mut m = Out::new();
        m.push("nodes", json!(s.nodes));
        m.push("height", json!(s.height));
        m.push("average_height", json!(s.average_height));
        m.push(
            "leaves",
            json!({"inside": s.leaves[0], "outside": s.leaves[1], "entity": s.leaves[2], "free": s.leaves[3]}),
        );
        m.push("pseudo", json!({"edges": s.pseudo[0], "vertices": s.pseudo[1]}));
        m.push("regular_cuts", json!(s.regular_cuts));
        m.push(
            "cuts",
            json!({"face": s.cuts[0], "edge": s.cuts[1], "vertex_on_line": s.cuts[2], "vertex_in_plane": s.cuts[3]}),
        );
        m.push("lost", json!(s.lost));
        Ok(m)
    }
}
