use hdl::ba_tag_array::BaTagArrayRtl;
use ports::ba::BaParams;
fn main() {
    let p = BaParams::default();
    let mut u = BaTagArrayRtl::<32, 21, 4, 3>::new(&p);
    print!(
        "{}",
        hdl::emit::emit_unit("ba_tag_array", &mut u, &["probe".into()]).unwrap()
    );
}
