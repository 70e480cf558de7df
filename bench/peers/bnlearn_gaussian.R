# bnlearn's side of bench/gaussian.ts: reads the two CSVs the bench exported (the same numbers
# both sides read), times bn.fit, hc (bic-g, bic-cg) and pc.stable (zf), and prints one JSON
# object. Usage: Rscript bnlearn_gaussian.R GAUSSIAN.csv CLGAUSSIAN.csv REPEATS
suppressMessages(library(bnlearn))
args <- commandArgs(trailingOnly = TRUE)
g <- read.csv(args[1])
cg <- read.csv(args[2], stringsAsFactors = TRUE)
k <- as.integer(args[3])
per <- function(f) { t <- system.time(for (i in 1:k) r <- f())[["elapsed"]]; list(r = r, s = t / k) }
q <- function(x) paste0('"', x, '"')
arcsJson <- function(a) paste0("[", paste0("[", q(a[, 1]), ",", q(a[, 2]), "]", collapse = ","), "]")
strings <- function(x) if (length(x) == 0) "[]" else paste0("[", paste(q(x), collapse = ","), "]")
num <- function(x) formatC(x, digits = 17, format = "g")
hg <- per(function() hc(g, score = "bic-g"))
hcg <- per(function() hc(cg, score = "bic-cg"))
pg <- per(function() pc.stable(g, test = "zf"))
fg <- per(function() bn.fit(hg$r, g))
fcg <- per(function() bn.fit(hcg$r, cg))
# Gaussian nodes' coefficients and residual sd, flattened per node (CLG: per configuration, bnlearn's order).
fitted <- function(f) {
  parts <- sapply(names(f), function(n) {
    node <- f[[n]]
    if (inherits(node, "bn.fit.dnode")) return(NA)
    # CLG nodes list their discrete and continuous parents by position in node$parents.
    dp <- if (is.null(node$dparents)) character(0) else node$parents[node$dparents]
    gp <- if (is.null(node$gparents)) node$parents else node$parents[node$gparents]
    paste0(q(n), ":{\"dparents\":", strings(dp), ",\"gparents\":", strings(gp),
           ",\"coefficients\":[", paste(num(as.vector(node$coefficients)), collapse = ","),
           "],\"sd\":[", paste(num(as.vector(node$sd)), collapse = ","), "]}")
  })
  paste0("{", paste(parts[!is.na(parts)], collapse = ","), "}")
}
cat("{",
    "\"hcG\":{\"arcs\":", arcsJson(arcs(hg$r)), ",\"score\":", num(score(hg$r, g, type = "bic-g")), ",\"seconds\":", num(hg$s), "},",
    "\"hcCG\":{\"arcs\":", arcsJson(arcs(hcg$r)), ",\"score\":", num(score(hcg$r, cg, type = "bic-cg")), ",\"seconds\":", num(hcg$s), "},",
    "\"pcZf\":{\"arcs\":", arcsJson(arcs(pg$r)), ",\"seconds\":", num(pg$s), "},",
    "\"fitG\":{\"seconds\":", num(fg$s), ",\"nodes\":", fitted(fg$r), "},",
    "\"fitCG\":{\"seconds\":", num(fcg$s), ",\"nodes\":", fitted(fcg$r), "}",
    "}\n", sep = "")
