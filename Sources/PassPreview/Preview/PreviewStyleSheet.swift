/// The CSS of every preview page: Wallet's proportions in CSS pixels (one pixel is one point), system-like
/// fonts with DejaVu Sans as the Linux fallback (Debian `fonts-dejavu-core`, `fonts-dejavu-extra` for the light
/// face). The front's text sizes come from `PreviewFont`, which the layout measures with; kerning and ligatures
/// are off so that a line is as wide as `TextWidth` says. Front text never wraps and is never cut by the browser:
/// the layout gives every box its width and cuts what does not fit (`PassCard+Layout`); the browser only clips.
enum PreviewStyleSheet {
    typealias F = PreviewFont

    /// `font-size` and `font-weight` of `font`, plus its case and spacing.
    static func font(_ font: PreviewFont) -> String {
        "font-size:\(font.cssSize);font-weight:\(font.weight.css)"
            + (font.uppercase ? ";text-transform:uppercase" : "")
            + (font.letterSpacing != 0 ? ";letter-spacing:\(font.letterSpacing)em" : "")
    }

    static let css = """
        *{box-sizing:border-box;margin:0;padding:0}
        body{background:#e5e5ea;font-family:-apple-system,"SF Pro Text","Helvetica Neue","DejaVu Sans",Arial,sans-serif;padding:20px;font-kerning:none;font-variant-ligatures:none}
        .passes{display:flex;gap:20px;align-items:flex-start;flex-wrap:wrap}
        .column{display:flex;flex-direction:column;gap:12px}
        .pass{border-radius:14px;overflow:hidden;position:relative;display:flex;flex-direction:column;box-shadow:0 1px 3px rgba(0,0,0,.25)}
        .front{padding:10px 12px 14px}
        .front.coupon{-webkit-mask:radial-gradient(circle 4px at 50% 0,transparent 97%,#000) 0 0/12px 100%}
        .front.eventTicket:not(.poster){-webkit-mask:radial-gradient(circle 16px at 50% 0,transparent 97%,#000)}
        .front.blurred::before{content:"";position:absolute;inset:-20px;background:var(--bg) center/cover;filter:blur(9px);transform:scale(1.1);z-index:0}
        .front>*{position:relative;z-index:1}
        .top{display:flex;align-items:center;gap:8px;min-height:40px;margin-bottom:6px}
        .top .logo{flex:none;object-fit:contain}
        .logotext{flex:none;\(font(F.logoText));white-space:nowrap;overflow:hidden}
        .spacer,.grow{flex:1}
        .field{min-width:0}
        .label{color:var(--label);\(font(F.label));white-space:nowrap;overflow:hidden}
        .value{\(font(F.value));white-space:nowrap;overflow:hidden}
        .header{text-align:right;flex:none}.header .value{\(font(F.headerValue))}
        .row{display:flex;gap:\(Int(PassCard.rowGap))px;margin:8px 0 0}
        .row .field{flex:none}.row:has(>:nth-child(4)) .value{\(font(F.valueOfFour))}.row:has(>:nth-child(5)) .value{\(font(F.valueOfFive))}.row{justify-content:space-between}
        .row .field:last-child:not(:first-child){text-align:right}
        .strip{position:relative;margin:0 -12px;min-height:112px;display:flex;flex-direction:column;justify-content:center;padding:8px 12px;overflow:hidden}
        .strip.event{min-height:89px}
        .strip.nostrip{min-height:96px}
        .stripimg{position:absolute;inset:0;width:100%;height:100%;object-fit:cover;z-index:0}
        .strip .field{position:relative;z-index:1}
        .primary .value{\(font(F.largePrimary));line-height:1.1}
        .primary .label{\(font(F.primaryLabel))}
        .primaryrow{display:flex;gap:10px;align-items:flex-start;margin:6px 0}
        .primaries{flex:1;min-width:0}
        .generic .primary .value,.eventTicket .primary .value{\(font(F.primary))}
        .thumb{width:80px;max-height:100px;object-fit:cover;border-radius:4px}
        .route{display:flex;align-items:center;justify-content:space-between;margin:6px 0}
        .route>*{flex:none}
        .airport .value{\(font(F.largePrimary))}
        .airport.dest{text-align:right}
        .footerimg{display:block;max-width:286px;max-height:15px;margin:8px auto 0}
        .barcode{align-self:center;background:#fff;border-radius:6px;padding:8px 10px 6px;display:flex;flex-direction:column;align-items:center;color:#000}
        .barcode .code svg{display:block}
        .barcode.broken{border:2px dashed #ff3b30;max-width:280px}.barcode.broken .alt{color:#ff3b30;white-space:normal}
        .barcode .alt{font-size:11px;margin-top:4px;color:#000;font-family:"DejaVu Sans",sans-serif}
        .poster{padding:0}
        .art{position:relative;width:100%;overflow:hidden;flex:none}
        .artimg{position:absolute;inset:0;width:100%;height:100%;object-fit:cover}
        .darken{position:absolute;left:0;right:0;top:0;height:45%;background:linear-gradient(rgba(0,0,0,var(--dark)) 60%,rgba(0,0,0,0))}
        .artfields{position:absolute;inset:0;display:flex;flex-direction:column;padding:12px 14px 0}
        .poster .top .logo{max-height:30px;max-width:126px}
        .posterprimary{margin-top:6px}
        .posterprimary.title .value{font-size:30px;font-weight:700;white-space:normal;line-height:1.1}
        .posterprimary .value{\(font(F.posterPrimary))}
        .eventlogotext{font-size:15px;font-weight:600}
        .venue{font-size:14px;margin-top:4px}
        .material{margin:0 -14px;padding:10px 14px 12px;background:rgba(0,0,0,.28);backdrop-filter:blur(12px);min-height:56px;position:relative}
        .secondarylogo{position:absolute;right:14px;bottom:10px;max-height:12px;max-width:135px}
        .band{flex:1;display:flex;align-items:center;justify-content:center;padding:10px}
        .actions{display:flex;flex-direction:column;gap:8px}
        .action{display:flex;align-items:center;gap:12px;background:#fff;border-radius:12px;padding:0 14px;height:44px;color:#000;text-decoration:none;font-size:15px}
        .action .glyph{width:28px;height:28px;border-radius:14px;background:#007aff;color:#fff;display:flex;align-items:center;justify-content:center;font-size:15px}
        .action .chev{margin-left:auto;color:#8e8e93;font-size:22px}
        .back{background:#fff;color:#000;padding:14px 16px 18px}
        .backhead{display:flex;align-items:center;gap:10px;margin-bottom:10px}
        .backhead .icon{width:29px;height:29px;border-radius:6px}
        .org{font-size:17px;font-weight:600}
        .backfield{border-top:1px solid #d1d1d6;padding:9px 0}
        .backfield .label{color:#6c6c70;text-transform:none;font-size:12px;letter-spacing:0;white-space:normal;overflow-wrap:anywhere}
        .backfield .value{white-space:normal;font-size:15px;overflow-wrap:anywhere}
        .backfield a{color:#007aff}
        .notes{font-size:11px;color:#6c6c70;width:340px}
        h1.name{font-size:12px;font-weight:500;color:#3c3c43;width:340px;overflow-wrap:anywhere}
        .gallery{display:flex;flex-wrap:wrap;gap:14px}
        .thumbnail{display:block;width:170px;text-decoration:none;color:#3c3c43;font-size:10px}
        .thumbnail .frame{width:170px;overflow:hidden}
        .thumbnail .frame>.pass{transform:scale(.5);transform-origin:0 0}
        .thumbnail .caption{margin-top:3px;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
        .failure{color:#ff3b30;font-size:12px;margin-top:8px}
        """
}
