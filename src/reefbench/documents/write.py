"""Writing text documents (``.odt``, through odfpy) and presentations (``.pptx``, through
python-pptx) for a task's setup: the document a user already has. (A presentation odfpy
writes loses its placeholders in LibreOffice, its titles becoming plain text boxes; a
PowerPoint deck keeps them.)

The files record their library as their generator, so only a save by LibreOffice makes them pass
:func:`~reefbench.envs.desktop.office_evaluators.saved_by_libreoffice`. The content is
plain on purpose (paragraphs in the body text style, slides of a title and bullets): what
the task asks the agent to add (headings, fields, notes) is not there yet.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

BODY_STYLE = "Text_20_body"


def write_text_document(path: Path, paragraphs: Sequence[str], title: str = "") -> None:
    """An ``.odt`` with an optional title paragraph ("Title" style) and then one body-text
    paragraph per entry of ``paragraphs`` (in the "Body Text" style: no headings)."""
    from odf.opendocument import OpenDocumentText
    from odf.style import ParagraphProperties, Style, TextProperties
    from odf.text import P

    document = OpenDocumentText()
    body = Style(name=BODY_STYLE, displayname="Text Body", family="paragraph")
    body.addElement(ParagraphProperties(marginbottom="0.247cm"))
    heading = Style(name="Title", displayname="Title", family="paragraph")
    heading.addElement(TextProperties(fontsize="20pt", fontweight="bold"))
    document.styles.addElement(body)
    document.styles.addElement(heading)
    if title:
        document.text.addElement(P(stylename=heading, text=title))
    for text in paragraphs:
        document.text.addElement(P(stylename=body, text=text))
    path.parent.mkdir(parents=True, exist_ok=True)
    document.save(str(path))


def write_presentation(path: Path, slides: Sequence[tuple[str, Sequence[str]]]) -> None:
    """A PowerPoint deck (``.pptx``, through python-pptx) of one "Title and Content" slide
    per ``(title, bullets)``, the bullets at the top level: the deck a colleague sent."""
    from pptx import Presentation as PptxPresentation

    deck = PptxPresentation()
    for title, bullets in slides:
        slide = deck.slides.add_slide(deck.slide_layouts[1])
        slide.shapes.title.text = title
        frame = slide.placeholders[1].text_frame
        frame.text = bullets[0] if bullets else ""
        for bullet in bullets[1:]:
            frame.add_paragraph().text = bullet
    path.parent.mkdir(parents=True, exist_ok=True)
    deck.save(str(path))
