// MathJax settings, read by vendor/mathjax/tex-svg.js (MathJax 3, served from the installed
// django-static-mathjax wheel, never a CDN). Only elements marked tex2jax_process are typeset, and
// inside them only text: the page escapes model text, so a "<script>" in a reply is text MathJax
// sees as characters, never markup. ui/safe filters \\href and friends to safe URLs.
window.MathJax = {
  loader: { load: ["ui/safe"] },
  tex: {
    inlineMath: [["$", "$"], ["\\(", "\\)"]],
    displayMath: [["$$", "$$"], ["\\[", "\\]"]],
    processEscapes: true
  },
  options: {
    ignoreHtmlClass: "tex2jax_ignore|json",
    processHtmlClass: "tex2jax_process",
    // transcripts are <pre>: let MathJax look inside them (its default skips pre and code)
    skipHtmlTags: ["script", "noscript", "style", "textarea", "code", "annotation", "annotation-xml"]
  },
  startup: {
    elements: [".tex2jax_process"],
    pageReady: function () {
      return MathJax.startup.defaultPageReady().then(function () {
        document.documentElement.dataset.math = "typeset";
      });
    }
  },
  svg: { fontCache: "global" }
};
