package dev.simhash.bench;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class CorporaTest {

    /** The shape of a LibreOffice help page (libreoffice-help-zh-cn 7.4): the display area between two tags with ids. */
    private static final String PAGE = """
        <html><head><title>查找工具栏</title><script>var x = 1;</script></head>
        <body><div id="TopLeftHeader">菜单</div>
        <div id="DisplayArea" itemprop="softwareHelp" itemscope="true" itemtype="http://schema.org/SoftwareApplication">
        <h1 dir="auto">查找工具栏</h1>
        <p class="paragraph" dir="auto">Find and Replace &amp; 替换</p>
              </div>
        </div>
        <div id="SearchFrame"></div>
        <footer><p>This page is: /text/shared/find_toolbar.xhp</p></footer>
        </body></html>
        """;

    @Test
    void helpPageTextIsTheDisplayAreaWithoutItsTagsAttributes() {
        // neither the opening tag's attributes (itemprop ... SoftwareApplication) nor the closing "<div" of the next area
        assertEquals("查找工具栏\nFind and Replace & 替换", Corpora.helpPageText(PAGE));
    }

    @Test
    void helpPageWithoutTheAreasIsAllItsText() {
        assertEquals("标题\n正文", Corpora.helpPageText("<html><body><h1>标题</h1>\n<p>正文</p></body></html>"));
        assertEquals("", Corpora.helpPageText("<div id=\"DisplayArea\" never closed"));
    }
}
